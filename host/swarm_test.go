package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/swarm"
	"github.com/seed11a79d2d/codemode/tool"
)

// scripted answers a child by its prompt: "fail" errors, "json:X" answers
// X, "bad json" answers prose first and JSON on the retry, "never" answers
// prose every time; anything else is echoed with its label.
func scripted(ctx context.Context, req AgentRequest) (string, error) {
	switch p := req.Prompt; {
	case p == "fail":
		return "", errors.New("the model is unavailable")
	case strings.HasPrefix(p, "json:"):
		return strings.TrimPrefix(p, "json:"), nil
	case p == "bad json" && req.Retry == nil:
		return "Sure! Here it is.", nil
	case p == "bad json":
		if !strings.Contains(req.Retry.Message, "it is not JSON") || req.Retry.Answer != "Sure! Here it is." {
			return "", fmt.Errorf("retry without the problem: %+v", req.Retry)
		}
		return "```json\n{\"n\": 7}\n```", nil
	case p == "never":
		return "no JSON for you", nil
	}
	return req.Label + ": " + req.Prompt, nil
}

func swarmRuntime(t testing.TB, codeMode, swarm string, agents Agents) *Runtime {
	t.Helper()
	return newRuntimeWith(t, &Options{Tools: []tool.Tool{shipments()}, CodeMode: codeModeJSON(json.RawMessage(codeMode)),
		Swarm: swarmJSON(json.RawMessage(swarm)), Agents: agents})
}

func TestSwarmAgentsRun(t *testing.T) {
	rt := swarmRuntime(t, `true`, `true`, AgentFunc(scripted))
	run := prepare(t, rt, RunOptions{})
	cases := []struct{ name, src, want string }{
		{"text", `return await agents.run("hello", { label: "a" })`, `"a: hello"`},
		{"parallel", `return await Promise.all(["x", "y", "z"].map((p) => agents.run(p, { label: p, model: "small" })))`, `["x: x","y: y","z: z"]`},
		{"schema ok", `return await agents.run('json:{"n": 1}', { schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } })`, `{"n":1}`},
		{"schema retry", `return await agents.run("bad json", { schema: { type: "object", required: ["n"] } })`, `{"n":7}`},
		{"schema fail", `try { await agents.run("never", { label: "v", schema: { type: "object" } }); } catch (e) { return [e.name, e.message]; }`,
			`["SwarmAgentError","sub-agent \"v\" did not answer JSON that matches options.schema, after one retry: it is not JSON"]`},
		{"schema mismatch", `try { await agents.run('json:{"n": "x"}', { schema: { type: "object", properties: { n: { type: "integer" } } } }); } catch (e) { return e.message.includes("does not match the schema"); }`, `true`},
		{"child error", `try { await agents.run("fail", { label: "c" }); } catch (e) { return [e.name, e instanceof Error, e.message]; }`,
			`["SwarmAgentError",true,"sub-agent \"c\" failed: the model is unavailable"]`},
		{"an answer that is a string", `return await agents.run('json:"just text"', { schema: { type: "string" } })`, `"just text"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := exec(t, run, c.src); r.Status != StatusCompleted || string(r.Value) != c.want {
				t.Fatalf("%s %s %s, want %s", r.Status, r.Error, r.Value, c.want)
			}
		})
	}
}

// TestSwarmArguments: bad arguments reject with a TypeError that says what
// is wrong, and schemas that could hang or blow up the validator are
// refused before any child runs.
func TestSwarmArguments(t *testing.T) {
	var children atomic.Int64
	rt := swarmRuntime(t, `true`, `true`, AgentFunc(func(ctx context.Context, req AgentRequest) (string, error) {
		children.Add(1)
		return "{}", nil
	}))
	run := prepare(t, rt, RunOptions{})
	deep := strings.Repeat(`{"items":`, 40) + `{}` + strings.Repeat(`}`, 40)
	cases := []struct{ name, call, want string }{
		{"no prompt", `agents.run()`, `TypeError: agents.run(prompt, options?): prompt must be a string, not undefined.`},
		{"empty prompt", `agents.run("  ")`, `SwarmAgentError: agents.run: prompt must not be empty.`},
		{"huge prompt", `agents.run("x".repeat(70000))`, `TypeError: agents.run: prompt is 70000 characters; at most 65536 bytes of UTF-8.`},
		{"huge prompt in bytes", `agents.run("é".repeat(40000))`, `SwarmAgentError: agents.run: prompt is 80000 bytes of UTF-8; at most 65536.`},
		{"options array", `agents.run("p", [])`, `TypeError: agents.run: options must be an object with label, model and schema, not an array.`},
		{"unknown option", `agents.run("p", { schemas: {} })`, `TypeError: agents.run: unknown option "schemas" (known: label, model, schema).`},
		{"label number", `agents.run("p", { label: 3 })`, `TypeError: agents.run: options.label must be a string of at most 256 characters, not number.`},
		{"schema string", `agents.run("p", { schema: "object" })`, `TypeError: agents.run: options.schema must be a JSON Schema object, not string.`},
		{"schema array", `agents.run("p", { schema: [] })`, `TypeError: agents.run: options.schema must be a JSON Schema object, not an array.`},
		{"schema cycle", `(() => { const s = {}; s.self = s; return agents.run("p", { schema: s }); })()`, `TypeError: agents.run: options.schema must be JSON: circular reference`},
		{"schema ref", `agents.run("p", { schema: { $ref: "#" } })`, `SwarmAgentError: agents.run: options.schema may not use $ref: write the schema out in full.`},
		{"schema nested ref", `agents.run("p", { schema: { $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }] } } } })`, `SwarmAgentError: agents.run: options.schema may not use $ref: write the schema out in full.`},
		{"schema deep", `agents.run("p", { schema: ` + deep + ` })`, `SwarmAgentError: agents.run: options.schema nests deeper than 32 levels.`},
		{"schema huge", `agents.run("p", { schema: { description: "x".repeat(20000) } })`, `TypeError: agents.run: options.schema is 20018 characters of JSON; at most 16384.`},
		{"schema version", `agents.run("p", { schema: { $schema: "http://example.com/mine" } })`, `SwarmAgentError: agents.run: options.schema has an unsupported $schema`},
		{"missing member", `agents.spawn("p")`, `TypeError: agents has no function "spawn". Closest: run.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := exec(t, run, `try { await `+c.call+`; return "resolved"; } catch (e) { return e.name + ": " + e.message; }`)
			var got string
			json.Unmarshal(r.Value, &got)
			if r.Status != StatusCompleted || !strings.HasPrefix(got, c.want) {
				t.Fatalf("%s %s: %q, want %q", r.Status, r.Error, got, c.want)
			}
		})
	}
	if n := children.Load(); n != 0 {
		t.Errorf("%d children ran for refused requests", n)
	}
	// Getters on the options object run once each, and a throwing one
	// rejects with its own error.
	r := exec(t, run, `let reads = 0;
		const o = { get label() { reads++; return "g"; }, get schema() { reads++; return undefined; } };
		await agents.run("p", o);
		const bad = { get model() { throw new RangeError("nope"); } };
		const e = await agents.run("p", bad).catch((e) => e);
		return [reads, e.name, e.message];`)
	if r.Status != StatusCompleted || string(r.Value) != `[2,"RangeError","nope"]` {
		t.Fatalf("%+v", r)
	}
}

// TestSwarmBounds: children beyond maxConcurrent wait for a slot (and do
// not take maxPendingToolCalls slots); beyond maxAgentsPerCell agents.run
// rejects, and a flood of unawaited calls leaves nothing behind.
func TestSwarmBounds(t *testing.T) {
	var inFlight, most, total atomic.Int64
	release := make(chan struct{})
	started := make(chan struct{}, 64)
	rt := swarmRuntime(t, `{"enabled": true, "maxPendingToolCalls": 2}`, `{"enabled": true, "maxConcurrent": 3, "maxAgentsPerCell": 12}`,
		AgentFunc(func(ctx context.Context, req AgentRequest) (string, error) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			total.Add(1)
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			return req.Prompt, nil
		}))
	run := prepare(t, rt, RunOptions{})
	go func() {
		for range 3 {
			<-started
		}
		close(release)
	}()
	r := exec(t, run, `const all = [];
		for (let i = 0; i < 10; i++) all.push(agents.run("p" + i));
		const values = await Promise.all(all);
		const more = [agents.run("a"), agents.run("b"), agents.run("c")];
		const settled = await Promise.allSettled(more);
		return [values.length, values[9], settled.map((s) => s.status), settled[2].reason.name, settled[2].reason.message];`)
	want := `[10,"p9",["fulfilled","fulfilled","rejected"],"SwarmAgentError","agents.run: this cell has started 12 sub-agents, the most tools.swarm.maxAgentsPerCell allows; collect their results, or end the cell and continue in a new one."]`
	if r.Status != StatusCompleted || string(r.Value) != want {
		t.Fatalf("%s %s %s", r.Status, r.Error, r.Value)
	}
	if most.Load() > 3 || total.Load() != 12 {
		t.Errorf("%d children at once (bound 3), %d in all (want 12)", most.Load(), total.Load())
	}

	// Thousands of unawaited calls: 12 start, the rest reject at once.
	r = exec(t, run, `let refused = 0;
		for (let i = 0; i < 5000; i++) agents.run("flood").catch(() => refused++);
		await new Promise((r) => setTimeout(r, 0));
		return refused;`)
	if r.Status != StatusCompleted || string(r.Value) != "4988" {
		t.Fatalf("%s %s %s", r.Status, r.Error, r.Value)
	}
}

// TestSwarmParksAndWaitContinues: a slow child is pending work: the run
// parks at the deadline and wait delivers the child's answer.
func TestSwarmParksAndWaitContinues(t *testing.T) {
	release := make(chan struct{})
	rt := swarmRuntime(t, fmt.Sprintf(`{"enabled": true, "timeoutMs": %d}`, parkTimeoutMs), `true`, AgentFunc(func(ctx context.Context, req AgentRequest) (string, error) {
		select {
		case <-release:
			return "slow answer", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}))
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `const v = await agents.run("think", { label: "slow" }); return v.toUpperCase();`)
	if r.Status != StatusWaiting || len(r.PendingToolCalls) != 1 || r.PendingToolCalls[0].Method != "agents.run" ||
		r.PendingToolCalls[0].ID != "tool_search_code:call_1:agents.run:1" {
		t.Fatalf("%+v", r)
	}
	close(release)
	for i := 0; i < 5 && r.Status == StatusWaiting; i++ {
		r = run.Wait(context.Background(), waitArgs(r.RunID))
	}
	if r.Status != StatusCompleted || string(r.Value) != `"SLOW ANSWER"` {
		t.Fatalf("%+v", r)
	}
}

// TestSwarmTrajectory: children are nested calls with their label; phases
// and logs are recorded in order, bounded, and never fail on odd values.
func TestSwarmTrajectory(t *testing.T) {
	var mu sync.Mutex
	var got []NestedCall
	notes := make(chan NestedCall, 2000)
	rt := swarmRuntime(t, `true`, `true`, AgentFunc(scripted))
	run := prepare(t, rt, RunOptions{Trajectory: func(c NestedCall) {
		if c.Method == "phase" || c.Method == "log" {
			notes <- c
			return
		}
		mu.Lock()
		got = append(got, c)
		mu.Unlock()
	}})
	r := run.Exec(context.Background(), "call_t", code(`phase("collect");
		const a = await agents.run("one", { label: "first" });
		log({ got: a });
		log("x".repeat(100000));
		await agents.run("fail", { label: "second" }).catch(() => {});
		phase(42);
		const errors = [];
		for (const f of [() => phase(), () => log()]) { try { f(); } catch (e) { errors.push(e.name + ": " + e.message); } }
		return errors;`))
	if r.Status != StatusCompleted || string(r.Value) != `["TypeError: phase(title) needs a title.","TypeError: log(message) needs a message."]` {
		t.Fatalf("%+v", r)
	}
	if len(got) != 2 || got[0].Method != "agents.run" || got[0].Label != "first" || got[0].ToolID != "agents.run" ||
		got[0].ID != "tool_search_code:call_t:agents.run:2" || got[0].ParentCallID != "call_t" || got[0].Error != "" ||
		got[1].Label != "second" || got[1].Error != `sub-agent "second" failed: the model is unavailable` {
		t.Fatalf("children %+v", got)
	}
	var in struct{ Prompt, Label string }
	if json.Unmarshal(got[0].Input, &in) != nil || in.Prompt != "one" || in.Label != "first" {
		t.Errorf("child input %s", got[0].Input)
	}
	want := []string{`phase {"title":"collect"}`, `log {"message":"{\"got\":\"first: one\"}"}`, "log", `phase {"title":"42"}`}
	for i, w := range want {
		c := <-notes
		if s := c.Method + " " + string(c.Input); i != 2 && s != w || i == 2 && (len(c.Input) > swarm.MaxNoteBytes+64 || c.Method != w) {
			t.Errorf("note %d: %.80s, want %s", i, s, w)
		}
	}

	// A flood is bounded per run, and a run nobody listens to costs nothing.
	r = exec(t, run, `for (let i = 0; i < 5000; i++) { log("tick " + i); phase(i); } return "done"`)
	if r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
	if n := len(notes); n > swarm.MaxNotesPerRun {
		t.Errorf("%d notes of one run, bound %d", n, swarm.MaxNotesPerRun)
	}
	quiet := prepare(t, rt, RunOptions{})
	if r := exec(t, quiet, `for (let i = 0; i < 20000; i++) log(i); return 1`); r.Status != StatusCompleted {
		t.Fatalf("%+v", r)
	}
}

// TestSwarmIsASeparateGate: code mode alone defines none of the globals,
// and the host refuses the operations whatever the guest sends.
func TestSwarmIsASeparateGate(t *testing.T) {
	rt := swarmRuntime(t, `true`, `false`, AgentFunc(scripted))
	run := prepare(t, rt, RunOptions{})
	r := exec(t, run, `return [typeof agents, typeof phase, typeof log, "agents" in globalThis]`)
	if r.Status != StatusCompleted || string(r.Value) != `["undefined","undefined","undefined",false]` {
		t.Fatalf("%+v", r)
	}
	st := run.newState("forged")
	defer st.cancel()
	for _, op := range []string{"agents.run", "phase", "log"} {
		if _, err := st.Request(op, `{"prompt":"p","text":"t"}`); err == nil || !strings.Contains(err.Error(), "tools.swarm is off") {
			t.Errorf("%s: %v", op, err)
		}
	}
	if len(st.pending) != 0 {
		t.Errorf("refused requests left %d pending", len(st.pending))
	}

	none := swarmRuntime(t, `true`, `true`, nil)
	r = exec(t, prepare(t, none, RunOptions{}), `try { await agents.run("p"); } catch (e) { return e.name + ": " + e.message; }`)
	if r.Status != StatusCompleted || string(r.Value) != bridge.Quote("SwarmAgentError: "+swarm.MsgNoAgents) {
		t.Fatalf("%+v", r)
	}
}

func TestResolveSwarm(t *testing.T) {
	cases := []struct {
		raw  string
		want SwarmConfig
		warn string
		err  string
	}{
		{``, SwarmConfig{MaxConcurrent: 8, MaxAgentsPerCell: 32}, "", ""},
		{`true`, SwarmConfig{Enabled: true, MaxConcurrent: 8, MaxAgentsPerCell: 32}, "", ""},
		{`{"maxConcurrent": 4}`, SwarmConfig{MaxConcurrent: 4, MaxAgentsPerCell: 32}, "", ""},
		{`{"enabled": true, "maxConcurrent": 100, "maxAgentsPerCell": 0}`, SwarmConfig{Enabled: true, MaxConcurrent: 64, MaxAgentsPerCell: 32},
			"tools.swarm.maxConcurrent: 100 clamped to 64; tools.swarm.maxAgentsPerCell: 0 is not a positive integer, using default 32", ""},
		{`{"enabled": null, "agents": 3}`, SwarmConfig{MaxConcurrent: 8, MaxAgentsPerCell: 32}, "tools.swarm.agents: unknown key ignored", ""},
		{`{"enabled": true, "provider": {"kind": "openai"}}`, SwarmConfig{Enabled: true, MaxConcurrent: 8, MaxAgentsPerCell: 32}, "", ""}, // the embedding program's
		{`{"enabled": "yes"}`, SwarmConfig{}, "", "tools.swarm.enabled: must be a boolean"},
		{`{"maxConcurrent": "8"}`, SwarmConfig{}, "", "tools.swarm.maxConcurrent: must be a number"},
		{`3`, SwarmConfig{}, "", "tools.swarm: must be a boolean or an object"},
	}
	for _, c := range cases {
		got, warnings, err := ResolveSwarm(json.RawMessage(c.raw))
		var ce *ConfigError
		switch {
		case c.err != "":
			if !errors.As(err, &ce) || err.Error() != c.err {
				t.Errorf("%s: error %v, want %s", c.raw, err, c.err)
			}
		case err != nil || got != c.want || strings.Join(warnings, "; ") != c.warn:
			t.Errorf("%s: %+v %q %v", c.raw, got, warnings, err)
		}
	}
}
