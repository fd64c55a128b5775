package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func schema(s string) json.RawMessage { return json.RawMessage(s) }

func mixedTools() []Tool {
	return []Tool{
		{Name: "select_file", Origin: OriginClient, Owner: "app", Description: "Ask the user to pick a file."},
		{Name: "ask", Origin: OriginClient, Description: "Ask the user."},
		{Name: "create_issue", Origin: OriginMCP, Owner: "github", Description: "Create a GitHub issue.",
			InputSchema: schema(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		{Name: "browser_request", Origin: OriginExternalPlugin, Owner: "browser", Label: "Browser request", Description: "Fetch a page in the browser."},
		{Name: "web_search", Origin: OriginCore, Label: "Web search", Description: "Search the web.", ReplaySafe: true,
			InputSchema:  schema(`{"type":"object","properties":{"query":{"type":"string"},"count":{"type":"integer","minimum":1,"maximum":10}},"required":["query"],"additionalProperties":false}`),
			OutputSchema: schema(`{"type":"array","items":{"type":"object","properties":{"url":{"type":"string"},"title":{"type":"string"}},"required":["url","title"],"additionalProperties":false}}`)},
		{Name: "exec", Origin: OriginCore, Description: "Run a shell command."},
		{Name: "exec", Origin: OriginCore, Control: true},
		{Name: "wait", Origin: OriginCore, Control: true},
		{Name: "tool_search", Origin: OriginCore},
		{Name: "tool_call", Origin: OriginBundledPlugin, Owner: "x"},
		{Name: "computer", Origin: OriginCore, DirectOnly: true},
		{Name: "shipments_list", Origin: OriginBundledPlugin, Owner: "shipping", Description: "List shipments.",
			OutputSchema: schema(`{"type":"object","properties":{"items":{"type":"array"}}}`)},
	}
}

func mustBuild(t testing.TB, tools []Tool, opts *BuildOptions) *Catalog {
	t.Helper()
	c, err := Build(tools, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBuildIDsAndOrder(t *testing.T) {
	c := mustBuild(t, mixedTools(), nil)
	var ids []string
	for _, e := range c.Entries() {
		ids = append(ids, e.ID)
	}
	want := []string{
		"openclaw:core:web_search",
		"openclaw:core:exec",
		"openclaw:shipping:shipments_list",
		"openclaw:browser:browser_request",
		"mcp:github:create_issue",
		"client:app:select_file",
		"client:client:ask",
	}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids:\n got %q\nwant %q", ids, want)
	}
	if got := c.Sources(); got != (SourceCounts{OpenClaw: 4, MCP: 1, Client: 2}) {
		t.Errorf("sources = %+v", got)
	}
	ws, _ := c.Lookup("openclaw:core:web_search")
	if ws.Input != "{ query: string; count?: number /* integer, >= 1, <= 10 */ }" {
		t.Errorf("input hint = %q", ws.Input)
	}
	if ws.Output != "Array<{ title: string; url: string }>" || !ws.ReplaySafe || !ws.Trusted() {
		t.Errorf("web_search entry = %+v", ws)
	}
	sl, _ := c.Lookup("openclaw:shipping:shipments_list")
	if sl.Output != "" {
		t.Errorf("open output schema must not yield an output hint, got %q", sl.Output)
	}
	mcp, ok := c.Lookup("mcp:github:create_issue")
	if !ok || mcp.Input != "unknown" || mcp.Trusted() {
		t.Errorf("mcp entry = %+v", mcp)
	}
	cl, _ := c.Lookup("client:client:ask")
	if cl.Input != "unknown" || cl.Output != "" || string(cl.InputSchema) != "{}" {
		t.Errorf("client entry = %+v", cl)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	a := mustBuild(t, mixedTools(), nil)
	b := mustBuild(t, mixedTools(), nil)
	if !reflect.DeepEqual(a.Entries(), b.Entries()) || a.QuickIndex() != b.QuickIndex() {
		t.Fatal("two builds of the same tools differ")
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name  string
		tools []Tool
		want  error
		msg   string
	}{
		{"duplicate", []Tool{{Name: "a"}, {Name: "a"}}, ErrDuplicateID, `catalog: duplicate tool id: "openclaw:core:a"`},
		{"duplicate across owners", []Tool{{Name: "c", Origin: OriginBundledPlugin, Owner: "a:b"}, {Name: "b:c", Origin: OriginExternalPlugin, Owner: "a"}}, ErrDuplicateID, ""},
		{"no name", []Tool{{Origin: OriginCore}}, ErrInvalidTool, ""},
		{"plugin without owner", []Tool{{Name: "x", Origin: OriginBundledPlugin}}, ErrInvalidTool, ""},
		{"mcp without server", []Tool{{Name: "x", Origin: OriginMCP}}, ErrInvalidTool, ""},
		{"bad origin", []Tool{{Name: "x", Origin: Origin(9)}}, ErrInvalidTool, ""},
		{"bad schema", []Tool{{Name: "x", InputSchema: schema(`{`)}}, ErrInvalidTool, ""},
		{"bad mcp schema", []Tool{{Name: "x", Origin: OriginMCP, Owner: "s", InputSchema: schema(`nope`)}}, ErrInvalidTool, ""},
		{"bad output schema", []Tool{{Name: "x", OutputSchema: schema(`[`)}}, ErrInvalidTool, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.tools, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if tc.msg != "" && err.Error() != tc.msg {
				t.Errorf("message = %q, want %q", err.Error(), tc.msg)
			}
		})
	}
	// Omitted tools never collide.
	if _, err := Build([]Tool{{Name: "exec", Control: true}, {Name: "exec"}, {Name: "computer", DirectOnly: true}, {Name: "computer"}}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestGuestViews(t *testing.T) {
	c := mustBuild(t, mixedTools(), nil)
	for _, e := range c.Guest() {
		if e.Source == SourceMCP {
			t.Errorf("guest view holds MCP entry %s", e.ID)
		}
	}
	if len(c.Guest()) != 6 {
		t.Errorf("guest entries = %d, want 6", len(c.Guest()))
	}
	raw, _ := json.Marshal(c.Guest()[0])
	want := `{"id":"openclaw:core:web_search","name":"web_search","label":"Web search","description":"Search the web.","source":"openclaw","sourceName":"core","input":"{ query: string; count?: number /* integer, \u003e= 1, \u003c= 10 */ }","output":"Array\u003c{ title: string; url: string }\u003e"}`
	if string(raw) != want {
		t.Errorf("compact JSON:\n got %s\nwant %s", raw, want)
	}
	d, err := c.Describe("web_search")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = json.Marshal(d)
	for _, part := range []string{`"parameters":{"type":"object"`, `"outputSchema":{"type":"array"`, `"id":"openclaw:core:web_search"`} {
		if !strings.Contains(string(raw), part) {
			t.Errorf("describe JSON %s lacks %s", raw, part)
		}
	}
	d, _ = c.Describe("client:client:ask")
	raw, _ = json.Marshal(d)
	if string(raw) != `{"id":"client:client:ask","name":"ask","description":"Ask the user.","source":"client","sourceName":"client","input":"unknown","parameters":{}}` {
		t.Errorf("describe JSON = %s", raw)
	}
}

func TestResolve(t *testing.T) {
	tools := append(mixedTools(),
		Tool{Name: "send", Origin: OriginBundledPlugin, Owner: "mail"},
		Tool{Name: "send", Origin: OriginBundledPlugin, Owner: "chat"},
	)
	c := mustBuild(t, tools, nil)
	cases := []struct{ in, id, err string }{
		{"openclaw:core:web_search", "openclaw:core:web_search", ""},
		{"web_search", "openclaw:core:web_search", ""},
		{"exec", "openclaw:core:exec", ""},
		{"openclaw:mail:send", "openclaw:mail:send", ""},
		{"send", "", "Ambiguous tool name: send; use an exact tool id."},
		{"mcp:github:create_issue", "", "Unknown tool id: mcp:github:create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."},
		{"create_issue", "", "Unknown tool id: create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."},
		{"web_serch", "", "Unknown tool id: web_serch. Did you mean: web_search? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."},
		{"openclaw:chat:sen", "", "Unknown tool id: openclaw:chat:sen. Did you mean: openclaw:chat:send, browser_request, exec? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."},
		{"", "", "Unknown tool id: . Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."},
	}
	for _, tc := range cases {
		e, err := c.Resolve(tc.in)
		if tc.err == "" {
			if err != nil || e.ID != tc.id {
				t.Errorf("Resolve(%q) = %q, %v; want %q", tc.in, e.ID, err, tc.id)
			}
			continue
		}
		if err == nil || err.Error() != tc.err {
			t.Errorf("Resolve(%q) error:\n got %v\nwant %s", tc.in, err, tc.err)
		}
	}
	if _, err := c.Resolve("send"); !errors.Is(err, ErrAmbiguousTool) {
		t.Errorf("ambiguous error does not match ErrAmbiguousTool: %v", err)
	}
	if _, err := c.Resolve("nope"); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown error does not match ErrUnknownTool: %v", err)
	}
	if e, ok := c.Lookup("mcp:github:create_issue"); !ok || e.Name != "create_issue" {
		t.Error("Lookup must find MCP entries by exact id")
	}
	_, err := c.Resolve(strings.Repeat("x", 10000))
	if n := len(err.Error()); n > 500 {
		t.Errorf("unknown-tool message echoes %d bytes", n)
	}
}

func TestConvenienceNames(t *testing.T) {
	tools := []Tool{
		{Name: "web_search"},
		{Name: "web-search", Origin: OriginBundledPlugin, Owner: "p"},
		{Name: "search", Origin: OriginBundledPlugin, Owner: "p"},
		{Name: "callValue", Origin: OriginBundledPlugin, Owner: "p"},
		{Name: "__proto__", Origin: OriginBundledPlugin, Owner: "p"},
		{Name: "dup", Origin: OriginBundledPlugin, Owner: "a"},
		{Name: "dup", Origin: OriginBundledPlugin, Owner: "b"},
		{Name: "only_mcp_twin", Origin: OriginClient},
		{Name: "only_mcp_twin", Origin: OriginMCP, Owner: "srv"},
		{Name: "mcp_only", Origin: OriginMCP, Owner: "srv"},
		{Name: "$ok_1", Origin: OriginClient, Owner: "app"},
		{Name: "1bad", Origin: OriginClient, Owner: "app"},
		{Name: "later_helper", Origin: OriginClient, Owner: "app"},
	}
	c := mustBuild(t, tools, nil)
	got := c.ConvenienceNames([]string{"later_helper"})
	want := []Binding{
		{"web_search", "openclaw:core:web_search"},
		{"only_mcp_twin", "client:client:only_mcp_twin"},
		{"$ok_1", "client:app:$ok_1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ConvenienceNames:\n got %v\nwant %v", got, want)
	}
}

func TestParseLimit(t *testing.T) {
	for raw, want := range map[string]int{"": 0, "null": 0, "1": 1, "3.0": 3, "1e2": 100, "50": 50, "99999999999": 2147483647} {
		got, err := ParseLimit(json.RawMessage(raw))
		if err != nil || got != want {
			t.Errorf("ParseLimit(%s) = %d, %v; want %d", raw, got, err, want)
		}
	}
	for _, raw := range []string{"0", "-1", "1.5", `"3"`, "true", "[]", "{}", "1e999", "x"} {
		_, err := ParseLimit(json.RawMessage(raw))
		if !errors.Is(err, ErrInvalidLimit) || err.Error() != "limit must be a positive integer." {
			t.Errorf("ParseLimit(%s) error = %v", raw, err)
		}
	}
}

func TestSearchScoring(t *testing.T) {
	tools := []Tool{
		{Name: "web_search", Label: "Web search", Description: "Search the web for pages."},
		{Name: "search", Origin: OriginBundledPlugin, Owner: "docs", Description: "Full-text search of the docs."},
		{Name: "read", Description: "Read a file."},
		{Name: "fetch", Label: "Search-free fetch", Description: "Fetch a URL."},
		{Name: "searcher", Origin: OriginMCP, Owner: "srv", Description: "search search search"},
		{Name: "note", Origin: OriginClient, Description: "Mentions SEARCH in prose."},
	}
	c := mustBuild(t, tools, nil)
	got, err := c.Search("Search", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	// search: 20 exact + 8 name + 6 id + 2 desc = 36; web_search: 8+6+4+2 = 20;
	// fetch: 4 (label); note: 2 (description). MCP entries are never searched.
	want := []string{"openclaw:docs:search", "openclaw:core:web_search", "openclaw:core:fetch", "client:client:note"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("Search ids:\n got %q\nwant %q", ids, want)
	}
	// No terms: every entry scores 1, ties by id.
	got, _ = c.Search("  ?? ", 0)
	ids = ids[:0]
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	want = []string{"client:client:note", "openclaw:core:fetch", "openclaw:core:read", "openclaw:core:web_search", "openclaw:docs:search"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("empty query ids:\n got %q\nwant %q", ids, want)
	}
	if got, _ := c.Search("zzz", 0); len(got) != 0 {
		t.Errorf("no match returned %d entries", len(got))
	}
	if _, err := c.Search("x", -1); !errors.Is(err, ErrInvalidLimit) {
		t.Errorf("negative limit: %v", err)
	}
}

func TestSearchLimits(t *testing.T) {
	var tools []Tool
	for i := range 80 {
		tools = append(tools, Tool{Name: fmt.Sprintf("tool_%02d", i)})
	}
	c := mustBuild(t, tools, nil)
	for limit, want := range map[int]int{0: 8, 1: 1, 20: 20, 50: 50, 1000: 50} {
		got, _ := c.Search("tool", limit)
		if len(got) != want {
			t.Errorf("limit %d: %d results, want %d", limit, len(got), want)
		}
	}
	c = mustBuild(t, tools, &BuildOptions{SearchDefaultLimit: 30, MaxSearchLimit: 12})
	if got, _ := c.Search("", 0); len(got) != 12 || got[0].Name != "tool_00" || got[11].Name != "tool_11" {
		t.Errorf("clamped default limit: %d results", len(got))
	}
	c = mustBuild(t, tools, &BuildOptions{SearchDefaultLimit: 3})
	if got, _ := c.Search("tool_7", 0); len(got) != 3 || got[0].Name != "tool_70" {
		t.Errorf("default limit 3 / ordering: %+v", got)
	}
}

func TestSearchTokenizer(t *testing.T) {
	got := tokenize("  Web-Search, read_file ÄÖ foo/bar:baz.qux!!")
	want := []string{"web-search", "read_file", "foo/bar:baz.qux"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokenize = %q, want %q", got, want)
	}
}
