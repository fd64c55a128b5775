package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/seed11a79d2d/codemode/mcpserve"
)

const serveSynopsis = "[--config FILE] [--http ADDR [--token-file FILE] [--session-idle DURATION]] [--engine NAME]"

// tokenEnv names the environment variable that carries serve --http's
// bearer token when --token-file is not given; this is the one place that
// names it.
const tokenEnv = "CODEMODE_TOKEN"

func serveCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", serveSynopsis, stderr)
	configPath := fs.String("config", "", "JSON5 configuration `file` (default: the demo catalog)")
	engineName := fs.String("engine", "", "the engine: "+engineNames()+" (default: the config's engine, else "+defaultEngine+")")
	addr := fs.String("http", "", "serve streamable HTTP at http://`ADDR`/mcp instead of stdio (\":0\" picks a free loopback port); an address that is not loopback needs a bearer token")
	tokenFile := fs.String("token-file", "", "with --http, require the bearer token in `file` (one line, at least 16 bytes) on every request; overrides $"+tokenEnv)
	idle := fs.Duration("session-idle", mcpserve.DefaultSessionIdle, "with --http, close a session (and end its parked runs) after this long without a request; 0 means never")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "serve", "unexpected argument %q", positional[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *addr == "" {
		for _, name := range []string{"token-file", "session-idle"} {
			if set[name] {
				return usageError(stderr, "serve", "--%s applies only with --http", name)
			}
		}
	}
	if *idle < 0 {
		return usageError(stderr, "serve", "--session-idle must not be negative (0 means never)")
	}
	opts := &mcpserve.Options{HTTPAddr: *addr, In: stdin, Out: stdout, SessionIdle: *idle}
	if *idle == 0 {
		opts.SessionIdle = -1 // the library's "never"; its zero is the default
	}
	if *addr != "" {
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
			if errors.Is(err, mcpserve.ErrTokenRequired) {
				return usageError(stderr, "serve", "%v\ngive one with --token-file FILE or $%s (for example: openssl rand -hex 32 > token; chmod 600 token)", err, tokenEnv)
			}
			return usageError(stderr, "serve", "%v", err)
		}
	}
	logger := newLogger(stderr, slog.LevelInfo)
	opts.Logger = logger
	e, err := newEnv(ctx, *configPath, serving, *engineName, logger, stderr)
	if err != nil {
		return reportSetupError(stderr, "serve", err)
	}
	defer e.Close(context.WithoutCancel(ctx))
	if !e.cfg.Enabled {
		fmt.Fprintln(stderr, "codemode serve: warning: code mode is off, so every tool is served directly")
	}
	opts.Relay = e.relay
	if err := mcpserve.Serve(ctx, e.rt, opts); err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		if errors.Is(err, mcpserve.ErrTokenRequired) {
			return exitUsage
		}
		return exitFailed
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
	} else if v, ok := os.LookupEnv(tokenEnv); ok {
		source, token = "$"+tokenEnv, v
	} else {
		return "", "", nil
	}
	token = strings.TrimRight(token, "\r\n")
	if strings.TrimSpace(token) == "" {
		return "", source, fmt.Errorf("%s: the bearer token is empty", source)
	}
	return token, source, nil
}
