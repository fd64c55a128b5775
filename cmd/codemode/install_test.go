package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host"
)

// These tests prove the module builds the way users get it: from a tree
// with no ignored files (so no quickjs.wasm), offline (GOPROXY=off) from a
// module cache that holds what the build needs, the engine module given by
// $CODEMODE_QUICKJS_WASM. The cache is filled by the test itself first
// (fillModuleCache), never left to what an earlier test happened to fetch.

// TestBuildFromCleanCopy is `go build ./cmd/codemode` on a fresh clone.
func TestBuildFromCleanCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command in a copy of the repository")
	}
	env := offlineEnv(t)
	repo := cleanCopy(t)
	fillModuleCache(t, "the clean copy", repo, env)
	goCmd(t, repo, env, "list", "./...") // every package resolves, embeds included
	bin := filepath.Join(t.TempDir(), "codemode")
	goCmd(t, repo, env, "build", "-o", bin, "./cmd/codemode")
	out := run1(t, env, bin, "exec", "-e", "return 1")
	var r host.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Status != host.StatusCompleted || string(r.Value) != "1" {
		t.Fatalf("codemode exec -e 'return 1' printed %q (%v)", out, err)
	}
}

// TestBuildAsDependency is a program of another module that requires this
// one (go get + go build) and runs a cell through package host.
func TestBuildAsDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program in another module")
	}
	env := offlineEnv(t)
	repo := cleanCopy(t)
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.26.0\n\nrequire github.com/seed11a79d2d/codemode v0.0.0\n\n" +
			"replace github.com/seed11a79d2d/codemode => " + repo + "\n",
		"go.sum":  string(sum),
		"main.go": userProgram,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fillModuleCache(t, "the user module", dir, env)
	bin := filepath.Join(t.TempDir(), "user")
	goCmd(t, dir, env, "build", "-o", bin, ".")
	if out := run1(t, env, bin); out != "completed 5" {
		t.Fatalf("the program printed %q", out)
	}
}

const userProgram = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

func main() {
	ctx := context.Background()
	add := tool.Tool{Name: "add", Description: "Add two numbers.",
		InputSchema: json.RawMessage(` + "`" + `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}` + "`" + `),
		Execute: func(ctx context.Context, call tool.Call) (tool.Result, error) {
			var in struct{ A, B float64 }
			err := json.Unmarshal(call.Input, &in)
			return tool.Result{Details: in.A + in.B}, err
		}}
	rt, err := host.New(ctx, &host.Options{Tools: []tool.Tool{add}, CodeMode: &host.Config{Enabled: true}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer rt.Close(ctx)
	run, err := rt.Prepare(host.RunOptions{Scope: tool.Scope{AgentID: "a", SessionID: "s", RunID: "r"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := run.Exec(ctx, "call_1", json.RawMessage(` + "`" + `{"code": "return await tools.add({a: 2, b: 3})"}` + "`" + `))
	fmt.Println(r.Status, string(r.Value))
}
`

// offlineEnv is the environment of the builds and the programs: offline Go
// modules from this machine's module cache, and the engine module in a file
// of its own (verified here, from the user cache or $CODEMODE_QUICKJS_WASM).
func offlineEnv(t *testing.T) []string {
	t.Helper()
	// Never the network here: a missing module fails at once, with the
	// loader's advice.
	t.Setenv("npm_config_registry", "http://127.0.0.1:1/")
	wasm, err := quickjswasi.LoadModule(t.Context(), nil)
	if err != nil {
		t.Fatalf("no verified module to build with (run make setup): %v", err)
	}
	file := filepath.Join(t.TempDir(), "quickjs.wasm")
	if err := os.WriteFile(file, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOSUMDB=off",
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"), quickjswasi.ModuleEnv+"="+file)
}

// fillModuleCache makes sure the module cache holds every module that
// loading dir's packages and tests needs (a user module's build reads the
// go.mod of modules that the repository's own pruned build never needs, and
// `go mod download` does not fetch those). Offline first; when that
// finds something missing, the same download through this machine's own
// GOPROXY, said in the log, so that a cold cache is a download, not a failure.
func fillModuleCache(t *testing.T, what, dir string, offline []string) {
	t.Helper()
	download := func(env []string) ([]byte, error) {
		cmd := exec.Command("go", "list", "-deps", "-test", "./...")
		cmd.Dir, cmd.Env = dir, env
		return cmd.CombinedOutput()
	}
	out, err := download(offline)
	if err == nil {
		return
	}
	proxy := goEnv(t, "GOPROXY")
	if proxy == "off" {
		t.Fatalf("the module cache lacks modules and GOPROXY=off: %v\n%s", err, out)
	}
	t.Logf("the module cache lacks modules of %s: fetching them through %s", what, proxy)
	online := append(slices.Clip(offline), "GOPROXY="+proxy, "GOSUMDB="+goEnv(t, "GOSUMDB"))
	if out, err := download(online); err != nil {
		t.Fatalf("go list -deps -test ./...: %v\n%s", err, out)
	}
}

// goEnv is one setting of the go command in this test's environment.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// cleanCopy copies what a clone of this working tree holds: tracked and
// new files, none that .gitignore names (such as an old quickjs.wasm).
func cleanCopy(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	src := strings.TrimSpace(string(root))
	list := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	list.Dir = src
	names, err := list.Output()
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(names), "\x00"), "\x00") {
		in, err := os.Open(filepath.Join(src, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, name)
		os.MkdirAll(filepath.Dir(target), 0o755)
		out, err := os.Create(target)
		if err == nil {
			_, err = io.Copy(out, in)
			out.Close()
		}
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "engines/quickjswasi/quickjs.wasm")); err == nil {
		t.Fatal("the copy holds quickjs.wasm: it must not be committed")
	}
	return dst
}

func goCmd(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// run1 runs a built program and returns its stdout, trimmed.
func run1(t *testing.T, env []string, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}
