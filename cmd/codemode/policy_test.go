package main

import (
	"encoding/json"
	"testing"
)

// tools.allow and tools.deny reach the demo docs server's resources and
// prompts by method or by id; an allow list naming only the tool refuses
// them all.
func TestPolicyCoversMCPResourcesAndPrompts(t *testing.T) {
	const cell = `
		const out = {};
		const attempt = async (k, f) => { try { await f(); out[k] = "ok"; } catch (e) { out[k] = e.message; } };
		await attempt("tool", () => MCP.docs.searchDocs({query: "release"}));
		await attempt("resources/list", () => MCP.docs.resources.list());
		await attempt("resources/read", () => MCP.docs.resources.read({uri: "memo://one"}));
		await attempt("prompts/list", () => MCP.docs.prompts.list());
		await attempt("prompts/get", () => MCP.docs.prompts.get({name: "brief", arguments: {topic: "release"}}));
		return out;`
	for _, tc := range []struct {
		name, tools string
		ok          []string // the methods that run; "tool" is search_docs
	}{
		{"allow names the tool", `allow: ["mcp:docs:search_docs"]`, []string{"tool"}},
		{"allow names an operation by id and one by method", `allow: ["search_docs", "mcp:docs:resources/read", "prompts/list"]`,
			[]string{"tool", "resources/read", "prompts/list"}},
		{"deny names one by id", `deny: ["mcp:docs:resources/read"]`,
			[]string{"tool", "resources/list", "prompts/list", "prompts/get"}},
		{"deny names one by method", `deny: ["prompts/get"]`,
			[]string{"tool", "resources/list", "resources/read", "prompts/list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeFile(t, "c.json5", `{tools: {codeMode: true, `+tc.tools+`}, plugins: {demo: true}}`)
			stdout, stderr, code := cli(t, "", "exec", "--config", cfg, "-e", cell)
			if code != 0 {
				t.Fatalf("exit %d: %s %s", code, stdout, stderr)
			}
			var out map[string]string
			if err := json.Unmarshal(results(t, stdout)[0].Value, &out); err != nil {
				t.Fatal(err)
			}
			ok := map[string]bool{}
			for _, k := range tc.ok {
				ok[k] = true
			}
			for _, k := range []string{"tool", "resources/list", "resources/read", "prompts/list", "prompts/get"} {
				want := "ok"
				if !ok[k] {
					want = "MCP operation mcp:docs:" + k + " is not allowed in this run."
				}
				if out[k] != want {
					t.Errorf("%s: got %q, want %q", k, out[k], want)
				}
			}
		})
	}
}
