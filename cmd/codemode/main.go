// Command codemode runs Code Mode from a shell: exec runs one cell against a
// tool catalog (the built-in demo catalog unless --config says otherwise),
// catalog shows what a model would see, serve offers exec and wait to any
// MCP client, and version names the engine parts.
//
// Usage:
//
//	codemode exec [FILE | -] [-e CODE] [--lang javascript|typescript] [--config FILE] [--once] [--trace] [--engine NAME]
//	codemode catalog [--config FILE] [--json] [--search QUERY] [--dts]
//	codemode serve [--config FILE] [--http ADDR [--token-file FILE] [--session-idle DURATION]] [--engine NAME]
//	codemode conformance [--engine NAME] [--json]
//	codemode audit verify FILE
//	codemode tools pins|approve --config FILE [--store URL] [ID...]
//	codemode version [--engine NAME]
//
// exec prints each result as one JSON object per line and answers a waiting
// result with wait until the run ends, unless --once. The exit status is 0
// when the last result is completed (or waiting, with --once), 1 when it
// failed, and 2 for usage and configuration errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

const usage = `codemode runs Code Mode cells against a hidden tool catalog.

Usage:
  codemode exec [FILE | -] [-e CODE] [--lang javascript|typescript] [--config FILE] [--once] [--trace] [--engine NAME]
  codemode catalog [--config FILE] [--json] [--search QUERY] [--dts]
  codemode serve [--config FILE] [--http ADDR [--token-file FILE] [--session-idle DURATION]] [--engine NAME]
  codemode init CLIENT_CONFIG [--out FILE] [--force]
  codemode conformance [--engine NAME] [--json]
  codemode audit verify FILE
  codemode tools pins|approve --config FILE [--store URL] [ID...]
  codemode version [--engine NAME]

Without --config the demo catalog is used, with code mode enabled.
Run "codemode COMMAND -h" for a command's flags.
`

// run is the whole program; main only wires it to the process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	takeSecrets()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "exec":
		return execCommand(ctx, rest, stdin, stdout, stderr)
	case "catalog":
		return catalogCommand(ctx, rest, stdout, stderr)
	case "serve":
		return serveCommand(ctx, rest, stdin, stdout, stderr)
	case "version":
		return versionCommand(ctx, rest, stdout, stderr)
	case "init":
		return initCommand(rest, stdout, stderr)
	case "conformance":
		return conformanceCommand(ctx, rest, stdout, stderr)
	case "audit":
		return auditCommand(rest, stdout, stderr)
	case "tools":
		return toolsCommand(ctx, rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "codemode: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

// parseFlags parses flags wherever they appear among the arguments ("exec
// file.js --trace" as well as "exec --trace file.js") and returns the
// positional arguments. A lone "-" is positional (standard input).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// newFlagSet returns a flag set whose -h prints the command's usage line.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: codemode %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// flagStatus maps a flag parsing error to an exit status.
func flagStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// usageError reports a usage problem and returns exitUsage.
func usageError(stderr io.Writer, cmd, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(stderr, "codemode %s: %s\n", cmd, strings.TrimSuffix(msg, "\n"))
	return exitUsage
}
