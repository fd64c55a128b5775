package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/seed11a79d2d/codemode/mcpserve"
)

const serveSynopsis = "[--config FILE] [--http ADDR]"

func serveCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", serveSynopsis, stderr)
	configPath := fs.String("config", "", "JSON5 configuration `file` (default: the demo catalog)")
	engineName := fs.String("engine", "", "the engine: "+engineNames()+" (default: the config's engine, else "+defaultEngine+")")
	addr := fs.String("http", "", "serve streamable HTTP at http://`ADDR`/mcp instead of stdio (\":0\" picks a free loopback port)")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "serve", "unexpected argument %q", positional[0])
	}
	logger := newLogger(stderr, slog.LevelInfo)
	e, err := newEnv(ctx, *configPath, withEngine, *engineName, logger, stderr)
	if err != nil {
		return reportSetupError(stderr, "serve", err)
	}
	defer e.Close(context.WithoutCancel(ctx))
	if !e.cfg.Enabled {
		fmt.Fprintln(stderr, "codemode serve: warning: code mode is off, so every tool is served directly")
	}
	err = mcpserve.Serve(ctx, e.rt, &mcpserve.Options{HTTPAddr: *addr, In: stdin, Out: stdout, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "codemode serve: %v\n", err)
		return exitFailed
	}
	return exitOK
}
