// Package mcpserve serves a Code Mode runtime as an MCP server: any MCP client
// sees exactly exec, wait and the run's direct-only tools, with the full exec
// description (quick index, API and MCP guidance, namespace prompts).
//
// Each MCP session is its own run scope, so a wait from another session fails
// with "code mode run belongs to a different session.". While a cell runs, the
// server sends progress notifications to a client that asked for them (one per
// finished nested call, and a heartbeat each second); a client cancellation
// aborts the cell. Results are MCP tool results: the CodeModeResult as
// structuredContent, a text rendering in content, isError on failed results.
package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// Options configure [Serve]. A nil *Options means stdio on this process's
// standard input and output.
type Options struct {
	// HTTPAddr, when set, serves streamable HTTP at http://HTTPAddr/mcp
	// instead of stdio. A missing host ("":8080) means 127.0.0.1; a port of 0
	// picks a free one (the URL is logged). DNS-rebinding protection is on:
	// requests to a loopback listener must name a loopback Host, and
	// cross-origin browser requests are refused.
	HTTPAddr string
	// In and Out carry stdio's newline-delimited JSON-RPC; nil means
	// os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer
	// Logger receives session and HTTP events; nil discards them.
	Logger *slog.Logger
}

// Serve serves rt until ctx is cancelled or, on stdio, until the client
// closes its end. It returns nil on a clean end of input or cancellation.
func Serve(ctx context.Context, rt *host.Runtime, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := newService(rt, &o)
	if err != nil {
		return err
	}
	if o.HTTPAddr == "" {
		return s.serveStdio(ctx)
	}
	ln, err := listen(o.HTTPAddr)
	if err != nil {
		return err
	}
	return s.serveHTTP(ctx, ln)
}

func listen(addr string) (net.Listener, error) {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("serve MCP over HTTP: address %q: %w", addr, err)
	}
	if h == "" {
		h = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(h, port))
	if err != nil {
		return nil, fmt.Errorf("serve MCP over HTTP: %w", err)
	}
	return ln, nil
}

func (s *service) serveStdio(ctx context.Context) error {
	in, out := s.opts.In, s.opts.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	err := s.server.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	// The client going away, whichever end it closed first, is a clean end.
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return fmt.Errorf("serve MCP over stdio: %w", err)
}

// serveHTTP serves streamable HTTP on ln until ctx is cancelled.
func (s *service) serveHTTP(ctx context.Context, ln net.Listener) error {
	url := "http://" + ln.Addr().String() + "/mcp"
	s.logger.Info("serving MCP over streamable HTTP", "url", url)
	hs := &http.Server{Handler: s.httpHandler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve MCP over HTTP: %w", err)
	case <-ctx.Done():
	}
	// Long-lived event streams never finish on their own: give requests a
	// moment, then close.
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if hs.Shutdown(sctx) != nil {
		hs.Close()
	}
	return nil
}

func (s *service) httpHandler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.server },
		&sdk.StreamableHTTPOptions{Logger: s.logger})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	return mux
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
