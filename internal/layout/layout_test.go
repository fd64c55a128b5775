package layout

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// engines are the import paths that mean a package links a JavaScript
// engine or the TypeScript transform: the sandbox's weight and attack
// surface.
var engines = []string{
	"github.com/tetratelabs/wazero",
	"github.com/bytecodealliance/wasmtime-go",
	"github.com/dop251/goja",
	"github.com/evanw/esbuild",
	"github.com/seed11a79d2d/codemode/engines",
	"github.com/seed11a79d2d/codemode/host",
}

// leaves are what plugins and stores are built from; they must link none of
// the engines, so that a plugin or a store neither carries nor can reach
// the sandbox.
var leaves = []string{"./tool", "./store/...", "./plugins/...", "./redisstore"}

// deps lists the packages patterns link, with their own.
func deps(t *testing.T, patterns ...string) []string {
	t.Helper()
	//lint:ignore SA1019 under go test it still names the toolchain that built this test, whose module graph is the one to check.
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(gobin, append([]string{"list", "-deps"}, patterns...)...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if e, ok := err.(*exec.ExitError); ok {
			msg = string(e.Stderr)
		}
		t.Fatalf("go list -deps %v: %v\n%s", patterns, err, msg)
	}
	return strings.Fields(string(out))
}

// linked returns the engine packages among pkgs.
func linked(pkgs []string) []string {
	var out []string
	for _, p := range pkgs {
		if slices.ContainsFunc(engines, func(e string) bool { return p == e || strings.HasPrefix(p, e+"/") }) {
			out = append(out, p)
		}
	}
	return out
}

func TestLeavesLinkNoEngine(t *testing.T) {
	for _, leaf := range leaves {
		if bad := linked(deps(t, leaf)); len(bad) > 0 {
			t.Errorf("%s links %d engine packages, among them %v; it may import tool and store, never host", leaf, len(bad), bad[:min(len(bad), 5)])
		}
	}
}

// The check finds an engine where there is one: host links all of them
// that it runs by default, and so would a plugin that imported it.
func TestTheCheckSeesAnEngine(t *testing.T) {
	bad := linked(deps(t, "./host"))
	for _, want := range []string{"github.com/tetratelabs/wazero", "github.com/evanw/esbuild", "github.com/seed11a79d2d/codemode/host"} {
		if !slices.ContainsFunc(bad, func(p string) bool { return p == want || strings.HasPrefix(p, want+"/") }) {
			t.Errorf("host's dependencies lack %s", want)
		}
	}
}
