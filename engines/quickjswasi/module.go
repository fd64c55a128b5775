package quickjswasi

import (
	"context"
	"os"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi/internal/wasmfile"
)

// ModuleEnv names a file holding the module, for machines that must not
// download it: a copy of quickjs-wasi's package/quickjs.wasm.
const ModuleEnv = "CODEMODE_QUICKJS_WASM"

var pin = wasmfile.Pin{Version: QuickJSWasiVersion, SHA256: QuickJSWasiSHA256}

// LoadModule returns the pinned quickjs.wasm, the module both engines (and
// anything else that needs its bytes) run. It takes the first of:
//
//  1. opts.Module, when not nil;
//  2. the file named by $CODEMODE_QUICKJS_WASM ([ModuleEnv]);
//  3. the user cache, <user cache dir>/codemode/quickjs-wasi-<version>/quickjs.wasm;
//  4. a download of the quickjs-wasi tarball from the npm registry
//     ($npm_config_registry, else registry.npmjs.org), written into that
//     cache; opts.Fetched (or opts.Logger) hears of it.
//
// Every source is checked against [QuickJSWasiSHA256] first: a wrong
// Module or $CODEMODE_QUICKJS_WASM is an error, and a wrong cache file is
// fetched again. Of opts only Module, Fetched and Logger are used; nil is
// all defaults.
func LoadModule(ctx context.Context, opts *Options) ([]byte, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	s := wasmfile.Sources{Bytes: o.Module, BytesName: "the Module option", Env: ModuleEnv,
		Registry: wasmfile.Registry(), Fetched: o.Fetched, Logger: o.Logger}
	if o.Module == nil {
		s.File = os.Getenv(ModuleEnv)
		s.Cache, _ = pin.CachePath()
	}
	return pin.Load(ctx, s)
}
