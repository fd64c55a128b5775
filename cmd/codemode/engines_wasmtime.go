//go:build wasmtime

package main

import (
	"context"
	"log/slog"

	"github.com/seed11a79d2d/codemode/engines/wasmtime"
)

func init() {
	engines["wasmtime"] = engineKind{
		start: func(ctx context.Context, prelude string, fetched func(string), logger *slog.Logger) (engine, error) {
			return wasmtime.New(ctx, &wasmtime.Options{Prelude: prelude, Fetched: fetched, Logger: logger})
		},
		cacheWarm: func() bool { return wasmtime.CacheWarm("") },
		runtime:   "wasmtime " + wasmtime.WasmtimeVersion,
		table:     "wasmtime",
	}
}
