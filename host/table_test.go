package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/tool"
)

// versioned is a Source whose tools a test replaces, moving its Version.
type versioned struct {
	tools   atomic.Pointer[[]tool.Tool]
	version atomic.Uint64
	reads   atomic.Int64
}

func (v *versioned) set(tools ...tool.Tool) {
	v.tools.Store(&tools)
	v.version.Add(1)
}

func (v *versioned) Tools() []tool.Tool {
	v.reads.Add(1)
	return *v.tools.Load()
}

func (v *versioned) Version() uint64 { return v.version.Load() }

func echoTool(name string) tool.Tool {
	return tool.Tool{Name: name, MCPServer: "docs", Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
		return tool.Result{Details: map[string]any{"content": []any{}, "structuredContent": name}}, nil
	}}
}

// Prepare reuses the table while the sources' Versions stand, and builds a
// new one when one moves; a run keeps the table it was prepared with.
func TestPrepareReusesTheTable(t *testing.T) {
	src := &versioned{}
	src.set(echoTool("first"))
	rt := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Sources: []tool.Source{src}})
	a, b := prepare(t, rt, RunOptions{}), prepare(t, rt, RunOptions{})
	if a.tab != b.tab || src.reads.Load() != 1 {
		t.Fatalf("two Prepares built two tables (%d reads of the source)", src.reads.Load())
	}
	src.set(echoTool("second"))
	c := prepare(t, rt, RunOptions{})
	if c.tab == a.tab {
		t.Fatal("a moved Version kept the old table")
	}
	if r := exec(t, c, `return ["first" in MCP.docs, "second" in MCP.docs]`); string(r.Value) != `[false,true]` {
		t.Fatalf("new run: %+v", r)
	}
	if r := exec(t, a, `return ["first" in MCP.docs, "second" in MCP.docs]`); string(r.Value) != `[true,false]` {
		t.Fatalf("old run: %+v", r)
	}
}

// The policy names tools by name or exact id, client tools included, and
// marks direct-only and approval tools the same way.
func TestPolicyByNameOrID(t *testing.T) {
	mkTool := func(name, plugin string) tool.Tool {
		return tool.Tool{Name: name, Plugin: plugin, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			return tool.Result{Details: c.ToolID}, nil
		}}
	}
	var asked []string
	rt := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true},
		Tools: []tool.Tool{mkTool("read", ""), mkTool("read", "notes"), mkTool("write", "notes"), mkTool("camera", ""), mkTool("send", "")},
		Policy: &Policy{Deny: []string{"openclaw:notes:read", "client:app:wipe"}, DirectOnly: []string{"openclaw:core:camera"},
			Approval: []string{"send"}},
		Hooks: tool.Hooks{Approve: func(ctx context.Context, e tool.Event) (bool, string, error) {
			asked = append(asked, e.ToolID)
			return false, "no", nil
		}}})
	run := prepare(t, rt, RunOptions{ClientTools: []tool.Tool{mkTool("wipe", "app"), mkTool("pick", "app")}})
	if got := names(run.Tools()); got != "exec,wait,camera" {
		t.Errorf("visible %s", got)
	}
	r := exec(t, run, `
		const out = [ALL_TOOLS.map(t => t.id).join(" ")];
		try { await tools.callValue("send"); } catch (e) { out.push(e.message); }
		return out;`)
	want := `["openclaw:core:read openclaw:core:send openclaw:notes:write client:app:pick",` +
		`"Tool \"openclaw:core:send\" was blocked before execution: no"]`
	if string(r.Value) != want || len(asked) != 1 {
		t.Fatalf("%s %+v (asked %v)", r.Value, r, asked)
	}
}

// A catalog tool without a convenience function is named with its id.
func TestMissingNameOfAToolWithoutConvenience(t *testing.T) {
	web := shipments()
	web.Name = "web-search"
	run := prepare(t, newRuntime(t, `true`, web), RunOptions{})
	r := exec(t, run, `try { tools["web-search"](); } catch (e) { return e.message; }`)
	if !strings.Contains(string(r.Value), `tools.callValue(\"openclaw:core:web-search\", input)`) {
		t.Fatalf("%s %+v", r.Value, r)
	}
}

// ALL_TOOLS reaches cells whose source names it; read by a name built at
// run time, it says how to get it.
func TestAllToolsByMention(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `return [Object.isFrozen(ALL_TOOLS), ALL_TOOLS.length, Object.isFrozen(ALL_TOOLS[0])]`)
	if string(r.Value) != `[true,1,true]` {
		t.Fatalf("%+v", r)
	}
	r = exec(t, run, `try { return globalThis["ALL" + "_TOOLS"]; } catch (e) { return e.message; }`)
	if !strings.Contains(string(r.Value), "write the name out, or use tools.search(query)") {
		t.Fatalf("%+v", r)
	}
}

// A large catalog's cell holds the names it mentions as real members and
// reaches the others through the host; ALL_TOOLS is still whole.
func TestLargeCatalogCells(t *testing.T) {
	tools := benchTools("core", 2000)
	for i := range 2000 {
		tools = append(tools, echoTool(fmt.Sprintf("lookup_%d", i)))
	}
	run := prepare(t, newRuntime(t, `true`, tools...), RunOptions{})
	if run.tab.GuestSetup().Whole() {
		t.Fatal("2,000 tools were set up whole")
	}
	r := exec(t, run, `
		const name = "list_shipments_" + (1000 + 234), server = "lookup_" + 1999;
		return [
			"list_shipments_7" in tools, name in tools, Object.keys(tools).length,
			(await tools.list_shipments_7({depot_7: "x"})).length,
			(await tools[name]({depot_1234: "x"})).length,
			"lookup_5" in MCP.docs, server in MCP.docs,
			(await MCP.docs.lookup_5({})).structuredContent,
			(await MCP.docs[server]({})).structuredContent,
			await MCP.docs["lookup_" + "x"]({}).catch((e) => e.message.split(".")[1]),
			ALL_TOOLS.length, Object.isFrozen(ALL_TOOLS),
		];`)
	want := `[true,false,5,3,3,true,false,"lookup_5","lookup_1999","docs has no tool \"lookup_x\"",2000,true]`
	if string(r.Value) != want {
		t.Fatalf("got  %s\nwant %s\n%+v", r.Value, want, r)
	}
}

// A run that floods the host with catalog reads it never awaits is bounded
// like one that floods it with calls: the reads are answered at once but
// hold their slot until the cell takes the answer.
func TestReadsHoldPendingSlots(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	r := exec(t, run, `
		let refused = 0;
		const ok = [];
		for (let i = 0; i < 10000; i++) {
			try { ok.push(tools.search("ship")); } catch (e) { refused++; }
		}
		return [refused, (await Promise.all(ok)).length];`)
	if string(r.Value) != `[9984,16]` {
		t.Fatalf("%+v", r)
	}
}

// A yield is not a call: it needs no slot of maxPendingToolCalls, so a cell
// with every slot taken can still yield.
func TestYieldBesideFullPendingSlots(t *testing.T) {
	g := newGate()
	run := prepare(t, newRuntime(t, `true`, g.tool()), RunOptions{})
	r := exec(t, run, `
		const calls = [];
		for (let i = 0; i < 16; i++) calls.push(tools.slow_echo({v: i}));
		await yield_control("full");
		return (await Promise.all(calls)).length;`)
	if r.Status != StatusWaiting || r.Reason != "pending_tools" {
		t.Fatalf("%+v", r)
	}
	g.open()
	for r.Status == StatusWaiting {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	if string(r.Value) != "16" {
		t.Fatalf("%+v", r)
	}
}

// An attack on the policy through a large catalog's names resolved by the
// host: a denied tool is not reached by a built name, an id, a name on
// tools, or a name on its MCP server.
func TestLargeCatalogKeepsDeniedToolsOut(t *testing.T) {
	ran := 0
	secret := func(name, server string) tool.Tool {
		return tool.Tool{Name: name, MCPServer: server, Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			ran++
			return tool.Result{}, nil
		}}
	}
	tools := append(benchTools("core", 1000), secret("wipe_all", ""), secret("drop_db", "docs"), echoTool("lookup"))
	rt := newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true}, Tools: tools,
		Policy: &Policy{Deny: []string{"wipe_all", "mcp:docs:drop_db"}}})
	run := prepare(t, rt, RunOptions{})
	if run.tab.GuestSetup().Whole() {
		t.Fatal("not a large catalog")
	}
	r := exec(t, run, `
		const w = "wipe" + "_all", d = "drop" + "_db";
		const out = [];
		for (const f of [() => tools[w](), () => tools.callValue("openclaw:core:" + w), () => tools.callValue(w),
			() => MCP.docs[d]({}), () => tools.callValue("mcp:docs:" + d)]) {
			try { await f(); out.push("ran"); } catch (e) { out.push(e.message.split(".")[0]); }
		}
		return [out, w in tools, d in MCP.docs];`)
	want := `[["Unknown tool id: wipe_all","Unknown tool id: openclaw:core:wipe_all","Unknown tool id: wipe_all","MCP","Unknown tool id: mcp:docs:drop_db"],false,false]`
	if string(r.Value) != want || ran != 0 {
		t.Fatalf("got  %s\nwant %s (ran %d)", r.Value, want, ran)
	}
}

func TestDestructive(t *testing.T) {
	for in, want := range map[string]bool{
		``:                      false, // no annotations: not marked
		`{}`:                    true,  // MCP's defaults: not read-only, destructive
		`{"readOnlyHint":true}`: false,
		`{"readOnlyHint":true,"destructiveHint":true}`: false, // destructiveHint means nothing for a read-only tool
		`{"destructiveHint":false}`:                    false,
		`{"readOnlyHint":false}`:                       true,
		`{"destructiveHint":true,"title":"Wipe"}`:      true,
		`{"destructiveHint":"no"}`:                     true, // unreadable: marked
	} {
		if got := table.Destructive(json.RawMessage(in)); got != want {
			t.Errorf("table.Destructive(%s) = %v, want %v", in, got, want)
		}
	}
}
