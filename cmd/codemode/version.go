package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
)

func versionCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", stderr)
	engineName := fs.String("engine", defaultEngine, "the engine to start and describe: "+engineNames())
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "version", "takes no arguments")
	}
	name, err := pickEngine(*engineName, "")
	if err != nil {
		return usageError(stderr, "version", "%v", err)
	}
	eng, err := startEngine(ctx, name, stderr, newLogger(stderr, quietLevel()))
	if err != nil {
		fmt.Fprintf(stderr, "codemode version: %v\n", err)
		return exitFailed
	}
	defer eng.Close(context.WithoutCancel(ctx))
	fmt.Fprintf(stdout, "codemode %s\n", moduleVersion())
	fmt.Fprintf(stdout, "quickjs-wasi %s (sha256 %s…)\n", quickjswasi.QuickJSWasiVersion, quickjswasi.QuickJSWasiSHA256[:12])
	fmt.Fprintf(stdout, "QuickJS-NG %s\n", eng.QuickJSVersion())
	fmt.Fprintf(stdout, "%s\n", engines[name].runtime)
	fmt.Fprintf(stdout, "engines %s\n", engineNames())
	fmt.Fprintf(stdout, "go %s\n", runtime.Version())
	return exitOK
}

// moduleVersion is the main module's version, with the VCS revision when the
// binary was built from a checkout.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
