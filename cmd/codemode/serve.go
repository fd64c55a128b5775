package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/mcpserve"
)

const serveSynopsis = "[--config FILE] [--http ADDR [--token-file FILE] [--session-idle DURATION] [--stateless]] [--store URL [--store-key-file FILE]] [--engine NAME] [--drain DURATION] [--metrics ADDR] [--audit FILE] [--log-format text|json] [--log-level LEVEL] [--trace-content]"

// drainFor is --drain's default: how long serve, told to stop, lets legs
// in flight finish, and then parked runs' calls settle into the run store.
const drainFor = 30 * time.Second

// tokenEnv names the environment variable that carries serve --http's
// bearer token when --token-file is not given; this is the one place that
// names it.
const tokenEnv = "CODEMODE_TOKEN"

// secret is one of codemode's own secrets as the environment held it when
// the command started.
type secret struct {
	value string
	set   bool
}

// The bearer token and the run store's key from the environment, taken by
// takeSecrets.
var envToken, envStoreKey secret

// takeSecrets reads $CODEMODE_TOKEN and $CODEMODE_STORE_KEY once, when a
// command starts, and removes them from the process's environment, so that
// nothing started later (an MCP server with inheritEnv, the source parser, a
// tool's own child) inherits them. Each command run reads them afresh.
func takeSecrets() {
	take := func(name string) secret {
		v, ok := os.LookupEnv(name)
		os.Unsetenv(name)
		return secret{v, ok}
	}
	envToken, envStoreKey = take(tokenEnv), take(storeKeyEnv)
}

func serveCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", serveSynopsis, stderr)
	configPath := fs.String("config", "", "JSON5 configuration `file` (default: the demo catalog)")
	engineName := fs.String("engine", "", "the engine: "+engineNames()+" (default: the config's engine, else "+defaultEngine+")")
	addr := fs.String("http", "", "serve streamable HTTP at http://`ADDR`/mcp instead of stdio (\":0\" picks a free loopback port); an address that is not loopback needs a bearer token")
	tokenFile := fs.String("token-file", "", "with --http, require the bearer token in `file` (one line, at least 16 bytes) on every request; overrides $"+tokenEnv)
	idle := fs.Duration("session-idle", mcpserve.DefaultSessionIdle, "with --http, close a session (and end its parked runs) after this long without a request; 0 means never")
	stateless := fs.Bool("stateless", false, "with --http, serve without MCP sessions, so that any replica can answer any request; a run's scope is the bearer token's principal (needs a token)")
	storeURL := fs.String("store", "", "keep parked runs in the Redis at `URL` (redis://host:port/db), shared by replicas and kept across restarts; overrides the config's store")
	storeKey := fs.String("store-key-file", "", "with --store, sign the run store's entries with the key in `file` (at least 32 bytes); overrides $"+storeKeyEnv)
	drain := fs.Duration("drain", drainFor, "on SIGTERM or SIGINT, fail /readyz, refuse new cells as busy, and give the cells running this long to finish (then fail them); parked runs' calls get as long again to settle into the run store")
	of := addOpsFlags(fs)
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "serve", "unexpected argument %q", positional[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *storeURL == "" && set["store-key-file"] {
		return usageError(stderr, "serve", "--store-key-file applies only with --store")
	}
	if *addr == "" {
		for _, name := range []string{"token-file", "session-idle", "stateless"} {
			if set[name] && (name != "token-file" || *of.metrics == "") {
				return usageError(stderr, "serve", "--%s applies only with --http", name)
			}
		}
	}
	if *drain <= 0 {
		return usageError(stderr, "serve", "--drain must be positive")
	}
	if *idle < 0 {
		return usageError(stderr, "serve", "--session-idle must not be negative (0 means never)")
	}
	opts := &mcpserve.Options{HTTPAddr: *addr, In: stdin, Out: stdout, SessionIdle: *idle, Stateless: *stateless, Drain: *drain}
	if *idle == 0 {
		opts.SessionIdle = -1 // the library's "never"; its zero is the default
	}
	of.apply(opts)
	if *addr != "" || *of.metrics != "" {
		token, source, err := serveToken(*tokenFile)
		if err != nil {
			return usageError(stderr, "serve", "%v", err)
		}
		// Validating the token alone first lets its errors name where it came from.
		if err := (&mcpserve.Options{Token: token}).Validate(); err != nil {
			return usageError(stderr, "serve", "%s: %v", source, err)
		}
		opts.Token = token
		if err := opts.Validate(); err != nil {
			if errors.Is(err, mcpserve.ErrTokenRequired) || errors.Is(err, mcpserve.ErrStatelessToken) {
				return usageError(stderr, "serve", "%v\ngive one with --token-file FILE or $%s (for example: openssl rand -hex 32 > token; chmod 600 token)", err, tokenEnv)
			}
			return usageError(stderr, "serve", "%v", err)
		}
	}
	so := &serveSettings{stateless: *stateless}
	logger, closeOps, err := of.setup(ctx, opts, so, stderr)
	if err != nil {
		return usageError(stderr, "serve", "%v", err)
	}
	defer closeOps()
	if *storeURL != "" {
		so.store = &config.Store{URL: *storeURL, KeyFile: *storeKey}
	}
	e, err := newEnv(ctx, *configPath, serving, *engineName, so, logger, stderr)
	if err != nil {
		return reportSetupError(stderr, "serve", err)
	}
	defer e.Close(context.WithoutCancel(ctx))
	if !e.cfg.Enabled && !e.rt.ToolSearch().Enabled {
		fmt.Fprintln(stderr, "codemode serve: warning: code mode and Tool Search are off, so every tool is served directly")
	}
	opts.Relay, opts.Ready, opts.Redact = e.relay, e.ready, e.redact
	if err := mcpserve.Serve(ctx, e.rt, opts); err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		if errors.Is(err, mcpserve.ErrTokenRequired) {
			return exitUsage
		}
		return exitFailed
	}
	// Stopping: calls of parked runs finish and their outcomes reach the
	// run store, so another replica, or this one restarted, can resume them.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), *drain)
	defer cancel()
	if err := e.rt.Drain(dctx); err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
	}
	return exitOK
}

// serveToken reads the bearer token from file, else from $CODEMODE_TOKEN, and
// says where it came from. Neither is no token (""). A trailing newline, as
// echo and editors write, is not part of the token; a file or variable that
// holds nothing else is a mistake, not "no token".
func serveToken(file string) (token, source string, err error) {
	if file != "" {
		source = "--token-file " + file
		b, err := os.ReadFile(file)
		if err != nil {
			return "", source, fmt.Errorf("%s: %w", source, err)
		}
		token = string(b)
	} else if envToken.set {
		source, token = "$"+tokenEnv, envToken.value
	} else {
		return "", "", nil
	}
	token = strings.TrimRight(token, "\r\n")
	if strings.TrimSpace(token) == "" {
		return "", source, fmt.Errorf("%s: the bearer token is empty", source)
	}
	return token, source, nil
}
