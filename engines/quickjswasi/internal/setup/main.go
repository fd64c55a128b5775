// Command setup is make setup's step for the engine: it makes sure the
// pinned quickjs.wasm is where engines look for it, and says where that is.
// Nothing depends on it having run; an engine start does the same on its
// own. Run it as
//
//	go run ./engines/quickjswasi/internal/setup [-offline] [-tgz FILE]
//
// -tgz installs the module from a tarball that npm pack fetched (npm's
// registry, proxy and cache settings then apply); -offline never
// downloads. Either way the bytes are verified against the pin first.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi/internal/wasmfile"
)

func main() {
	tgz := flag.String("tgz", "", "install package/quickjs.wasm from this npm tarball")
	offline := flag.Bool("offline", false, "fail instead of downloading")
	flag.Parse()
	where, err := run(*tgz, *offline)
	if err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		os.Exit(1)
	}
	fmt.Printf("quickjs-wasi %s (sha256 %s): %s\n", quickjswasi.QuickJSWasiVersion, quickjswasi.QuickJSWasiSHA256[:12]+"…", where)
}

func run(tgz string, offline bool) (string, error) {
	if env := os.Getenv(quickjswasi.ModuleEnv); env != "" {
		// The engine reads only this file while the variable is set, so
		// filling the cache would not help it.
		_, err := quickjswasi.LoadModule(context.Background(), nil)
		return "$" + quickjswasi.ModuleEnv + " " + env, err
	}
	pin := wasmfile.Pin{Version: quickjswasi.QuickJSWasiVersion, SHA256: quickjswasi.QuickJSWasiSHA256}
	path, err := pin.CachePath()
	if err != nil {
		return "", fmt.Errorf("no user cache directory: %w; set %s instead", err, quickjswasi.ModuleEnv)
	}
	if b, err := os.ReadFile(path); err == nil && pin.Verify(b) == nil {
		return path, nil
	}
	switch {
	case tgz != "":
		f, err := os.Open(tgz)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := pin.Extract(f)
		if err == nil {
			err = pin.Install(path, b)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", tgz, err)
		}
		return path, nil
	case offline:
		return "", fmt.Errorf("%s holds no verified copy", path)
	}
	_, err = quickjswasi.LoadModule(context.Background(), &quickjswasi.Options{Fetched: func(string) {}})
	return path, err
}
