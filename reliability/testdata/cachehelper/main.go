// Command cachehelper starts the quickjswasi engine on a compilation cache
// directory and runs one cell, for reliability's cache fault tests. It is
// built without the race detector so that compiling stays fast. It prints
// one JSON line: whether the engine started, the error, the cell's value and
// the engine's warnings.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

type logs struct {
	mu  sync.Mutex
	out []string
}

func (l *logs) Enabled(context.Context, slog.Level) bool { return true }
func (l *logs) Handle(_ context.Context, r slog.Record) error {
	s := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool { s += " " + a.String(); return true })
	l.mu.Lock()
	l.out = append(l.out, s)
	l.mu.Unlock()
	return nil
}
func (l *logs) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logs) WithGroup(string) slog.Handler      { return l }

func main() {
	dir := flag.String("dir", "", "compilation cache directory")
	fsize := flag.Uint64("fsize", 0, "RLIMIT_FSIZE in bytes (0: unchanged), to make the cache's disk full")
	flag.Parse()
	if *fsize > 0 {
		signal.Ignore(syscall.SIGXFSZ)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: *fsize, Max: *fsize}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	var out struct {
		Started bool     `json:"started"`
		Error   string   `json:"error,omitempty"`
		Value   string   `json:"value,omitempty"`
		Logs    []string `json:"logs"`
	}
	l := &logs{}
	ctx := context.Background()
	e, err := quickjswasi.New(ctx, &quickjswasi.Options{CacheDir: *dir, Prelude: host.Prelude(), Logger: slog.New(l)})
	if err != nil {
		out.Error = err.Error()
	} else {
		out.Started = true
		rt, err := host.New(ctx, &host.Options{Engine: e, CodeMode: &host.Config{Enabled: true},
			Tools: []tool.Tool{{Name: "noop", Execute: func(context.Context, tool.Call) (tool.Result, error) { return tool.Result{}, nil }}}})
		if err != nil {
			out.Error = err.Error()
		} else if run, err := rt.Prepare(host.RunOptions{}); err != nil {
			out.Error = err.Error()
		} else {
			r := run.Exec(ctx, "c", json.RawMessage(`{"code":"return 6 * 7"}`))
			out.Value = string(r.Value) + r.Error
			rt.Close(ctx)
		}
		e.Close(ctx)
	}
	out.Logs = l.out
	json.NewEncoder(os.Stdout).Encode(out)
}
