//go:build wasmtime

package bench

import (
	"context"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/wasmtime"
)

// The hardened build's engine joins every metric, behind its build tag:
// go test -tags wasmtime -run '^$' -bench . ./bench
func init() {
	engineCases = append(engineCases, engineCase{name: "quickjswasi-wasmtime", prelude: true,
		new: func(ctx context.Context, prelude string) (abi.Engine, error) {
			return wasmtime.New(ctx, &wasmtime.Options{Prelude: prelude})
		}})
}
