//go:build wasmtime

package wasmtime

import (
	"context"
	"os"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/conformance/conformancetest"
)

func TestConformance(t *testing.T) {
	conformancetest.Run(t, "wasmtime", func(t testing.TB) abi.Engine {
		e, err := New(context.Background(), &Options{CacheDir: os.Getenv(CacheDirEnv)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	})
}
