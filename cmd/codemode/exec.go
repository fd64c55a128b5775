package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/host"
)

const execSynopsis = "[FILE | -] [-e CODE] [--lang javascript|typescript] [--config FILE] [--once] [--trace]"

func execCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("exec", execSynopsis, stderr)
	code := fs.String("e", "", "the cell's code (instead of FILE)")
	lang := fs.String("lang", "", "javascript or typescript (default: typescript for .ts, .mts and .cts files, else javascript)")
	configPath := fs.String("config", "", "JSON5 configuration `file` (default: the demo catalog)")
	once := fs.Bool("once", false, "print the first result only; do not answer waiting with wait")
	trace := fs.Bool("trace", false, "print each nested tool call on stderr as one JSON object per line")
	engineName := fs.String("engine", "", "the engine: "+engineNames()+" (default: the config's engine, else "+defaultEngine+")")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	codeSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "e" {
			codeSet = true
		}
	})

	var source, file string
	switch {
	case len(positional) > 1:
		return usageError(stderr, "exec", "want one FILE, got %d arguments", len(positional))
	case codeSet && len(positional) == 1:
		return usageError(stderr, "exec", "give either FILE or -e CODE, not both")
	case codeSet:
		source = *code
	case len(positional) == 1 && positional[0] == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			return usageError(stderr, "exec", "read standard input: %v", err)
		}
		source = string(b)
	case len(positional) == 1:
		file = positional[0]
		b, err := os.ReadFile(file)
		if err != nil {
			return usageError(stderr, "exec", "%v", err)
		}
		source = string(b)
	default:
		return usageError(stderr, "exec", "no code: give FILE, - for standard input, or -e CODE")
	}
	switch host.Language(*lang) {
	case "", host.LanguageJavaScript, host.LanguageTypeScript:
	default:
		return usageError(stderr, "exec", "--lang must be javascript or typescript, not %q", *lang)
	}
	if *lang == "" {
		switch strings.ToLower(filepath.Ext(file)) {
		case ".ts", ".mts", ".cts":
			*lang = host.LanguageTypeScript.String()
		}
	}

	e, err := newEnv(ctx, *configPath, withEngine, *engineName, nil, newLogger(stderr, quietLevel()), stderr)
	if err != nil {
		return reportSetupError(stderr, "exec", err)
	}
	defer e.Close(context.WithoutCancel(ctx))
	search := e.rt.ToolSearch()
	if !e.cfg.Enabled && !(search.Enabled && search.Mode != host.ToolSearchTools) {
		where := "the configuration"
		if e.file != nil {
			where = e.file.Pos("tools.codeMode")
		}
		return usageError(stderr, "exec", "code mode is off in %s: set tools.codeMode.enabled to true", where)
	}

	var trajectory func(host.NestedCall)
	if *trace {
		trajectory = (&tracer{w: stderr}).record
	}
	run, err := e.rt.Prepare(host.RunOptions{Scope: cliScope, Trajectory: trajectory})
	if err != nil {
		fmt.Fprintf(stderr, "codemode exec: %v\n", err)
		return exitFailed
	}

	if !run.Active() && !run.Searching() {
		fmt.Fprintf(stderr, "codemode exec: %s, so code mode is inactive for this run\n", e.noTools())
	}
	in := map[string]string{"code": source}
	if *lang != "" {
		in["language"] = *lang
	}
	argsJSON, _ := json.Marshal(in)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	// With Tool Search, the file is a tool_search_code body, which never
	// waits.
	cell := run.Exec
	if run.Searching() {
		cell = run.ToolSearchCode
	}
	res := cell(ctx, "call_1", argsJSON)
	for {
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(stderr, "codemode exec: write result: %v\n", err)
			return exitFailed
		}
		if res.Status != host.StatusWaiting || *once {
			break
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "codemode exec: interrupted while waiting")
			return exitFailed
		}
		waitArgs, _ := json.Marshal(map[string]string{"runId": res.RunID})
		res = run.Wait(ctx, waitArgs)
	}
	if res.Status == host.StatusFailed {
		return exitFailed
	}
	return exitOK
}

// reportSetupError prints a setup error; configuration errors exit 2, an
// engine or runtime that cannot start exits 1.
func reportSetupError(stderr io.Writer, cmd string, err error) int {
	var ce *host.ConfigError
	if errors.Is(err, errConfig) || errors.As(err, &ce) {
		fmt.Fprintf(stderr, "codemode %s: %v\n", cmd, strings.TrimPrefix(err.Error(), errConfig.Error()+": "))
		return exitUsage
	}
	fmt.Fprintf(stderr, "codemode %s: %v\n", cmd, err)
	return exitFailed
}

// tracer prints nested calls as JSON lines; calls finish on several
// goroutines, hence the lock.
type tracer struct {
	mu sync.Mutex
	w  io.Writer
}

// traceLine is one --trace line.
type traceLine struct {
	Trace        string          `json:"trace"` // always "nested_call"
	ID           string          `json:"id"`
	ParentCallID string          `json:"parentCallId"`
	ToolID       string          `json:"toolId"`
	Method       string          `json:"method"`
	Input        json.RawMessage `json:"input"`
	Error        string          `json:"error,omitempty"`
	Start        time.Time       `json:"start"`
	DurationMs   float64         `json:"durationMs"`
}

func (t *tracer) record(c host.NestedCall) {
	b, err := json.Marshal(traceLine{Trace: "nested_call", ID: c.ID, ParentCallID: c.ParentCallID, ToolID: c.ToolID,
		Method: c.Method, Input: c.Input, Error: c.Error, Start: c.Start.UTC(),
		DurationMs: float64(c.Duration.Microseconds()) / 1000})
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "%s\n", b)
}
