package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host"
)

// defaultEngine runs quickjs.wasm on wazero, the pure-Go runtime.
const defaultEngine = "wazero"

// engine is what the command needs of an engine beyond the ABI.
type engine interface {
	abi.Engine
	QuickJSVersion() string
}

// engineKind is one engine this binary was built with.
type engineKind struct {
	// start builds the engine with prelude in its template: the host's
	// guest API, or none for the bare conformance table. fetched, if not
	// nil, is told when the start downloaded the module.
	start     func(ctx context.Context, prelude string, fetched func(path string), logger *slog.Logger) (engine, error)
	cacheWarm func() bool
	runtime   string // the wasm runtime and its version, for codemode version
	table     string // the engine's name in the conformance baseline
}

// engines are the engines of this binary; the wasmtime one joins when the
// binary is built with -tags wasmtime.
var engines = map[string]engineKind{
	defaultEngine: {
		start: func(ctx context.Context, prelude string, fetched func(string), logger *slog.Logger) (engine, error) {
			return quickjswasi.New(ctx, &quickjswasi.Options{Prelude: prelude, Fetched: fetched, Logger: logger})
		},
		cacheWarm: func() bool { return quickjswasi.CacheWarm("") },
		runtime:   "wazero " + quickjswasi.WazeroVersion,
		table:     "quickjswasi",
	},
}

func engineNames() string { return strings.Join(sortedEngines(), ", ") }

func sortedEngines() []string {
	names := make([]string, 0, len(engines))
	for n := range engines {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// pickEngine resolves the engine name: the flag, else the config file's
// engine key, else the default. An engine's conformance table name (as
// codemode conformance prints it) names it too.
func pickEngine(flag, fromConfig string) (string, error) {
	name := flag
	if name == "" {
		name = fromConfig
	}
	if name == "" {
		name = defaultEngine
	}
	if _, ok := engines[name]; ok {
		return name, nil
	}
	for n, k := range engines { // the name conformance reports print
		if k.table == name {
			return n, nil
		}
	}
	return "", fmt.Errorf("unknown engine %q (this binary has: %s)", name, engineNames())
}

// startEngine starts the named engine, saying once on stderr when this start
// has to fetch the module or compile it. The engine loads and verifies the
// module while it reads its caches, so a wrong or missing module is the
// start's error (after the compile notice, on a cold cache).
func startEngine(ctx context.Context, name string, stderr io.Writer, logger *slog.Logger) (engine, error) {
	k := engines[name]
	if os.Getenv(quickjswasi.CacheDirEnv) != "off" && !k.cacheWarm() {
		fmt.Fprintln(stderr, "codemode: compiling the QuickJS engine once (about half a second); later runs load it from the cache")
	}
	eng, err := k.start(ctx, host.Prelude(), func(path string) {
		fmt.Fprintf(stderr, "codemode: fetched quickjs-wasi %s (sha256 %s…) into %s\n",
			quickjswasi.QuickJSWasiVersion, quickjswasi.QuickJSWasiSHA256[:12], path)
	}, logger)
	if err != nil {
		return nil, fmt.Errorf("start the engine: %w", err)
	}
	return eng, nil
}
