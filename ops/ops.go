// Package ops is codemode's operating surface: Prometheus metrics with
// bounded label sets, an append-only audit trail whose records are chained
// by hash, and the slog handler of the command's logs. It knows nothing of
// the host: callers (mcpserve, cmd/codemode) translate what they observe
// into its plain records, so it can be tested, and changed, on its own.
package ops
