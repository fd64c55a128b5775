package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// observed is a server with metrics, an audit trail and JSON logs, whose
// runtime has an approval hook (a disk named "ok" is approved), a
// before-call hook (a disk named "forbidden" is blocked) and a gate tool
// that holds its call until the gate opens.
type observed struct {
	url, metrics string
	trail        string
	logs         *lockedBuffer
	gate         chan struct{}
	cs           *sdk.ClientSession
}

func newObserved(t *testing.T) *observed {
	t.Helper()
	o := &observed{trail: filepath.Join(t.TempDir(), "audit.jsonl"), logs: &lockedBuffer{}, gate: make(chan struct{})}
	obs := &Observer{}
	disk := func(c tool.Event) string {
		var in struct{ Disk string }
		json.Unmarshal(c.Input, &in)
		return in.Disk
	}
	hooks := obs.Hooks(tool.Hooks{
		BeforeToolCall: func(ctx context.Context, e tool.Event) tool.Decision {
			return tool.Decision{Block: disk(e) == "forbidden", Reason: "policy"}
		},
		Approve: func(ctx context.Context, e tool.Event) (bool, string, error) { return disk(e) == "ok", "", nil },
	})
	f := &fixture{}
	rt, err := host.New(context.Background(), &host.Options{CodeMode: hosttest.CodeMode(json.RawMessage(parkConfig)), Hooks: hooks,
		Policy: &host.Policy{ApproveDestructive: true}, Tools: []tool.Tool{
			{Name: "add", Description: "Add.", InputSchema: json.RawMessage(`{"type":"object"}`),
				Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
					return tool.Result{Details: 3}, nil
				}},
			{Name: "wipe", Description: "Wipe a disk.", Annotations: json.RawMessage(`{"destructiveHint":true}`), InputSchema: json.RawMessage(`{"type":"object"}`),
				Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
					return tool.Result{Details: "wiped"}, nil
				}},
			{Name: "gate", Description: "Wait for the gate.", InputSchema: json.RawMessage(`{"type":"object"}`),
				Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
					select {
					case <-o.gate:
						return tool.Result{Details: "open"}, nil
					case <-ctx.Done():
						return tool.Result{}, ctx.Err()
					}
				}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	f.rt = rt
	audit, err := ops.OpenAudit(o.trail)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { audit.Close() })
	h, _ := ops.NewLogHandler(o.logs, "json", "debug")
	m := ops.NewMetrics()
	opts := &Options{Token: testToken, Metrics: m, Audit: audit, Observer: obs, Logger: slog.New(h),
		Ready: func(context.Context) error { return errors.New("store: unreachable") }}
	o.url = f.httpWith(t, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := (&service{opts: opts, logger: opts.Logger}).serveMetrics(ln)
	t.Cleanup(stop)
	o.metrics = "http://" + ln.Addr().String() + "/metrics"
	o.cs = connect(t, &sdk.StreamableClientTransport{Endpoint: o.url, HTTPClient: bearerClient("Bearer " + testToken)}, nil)
	t.Cleanup(func() { o.cs.Close() })
	return o
}

func (o *observed) exec(t *testing.T, code string) map[string]any {
	t.Helper()
	_, r := call(t, context.Background(), o.cs, "exec", map[string]string{"code": code})
	return r
}

// scrape reads /metrics with the token and parses it.
func (o *observed) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := bearerClient("Bearer " + testToken).Get(o.metrics)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is the value of the series of name whose labels include want
// (counter, gauge, or a histogram's count); 0 when there is none.
func value(fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	total := 0.0
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		ok := true
		for i := 0; i+1 < len(want); i += 2 {
			ok = ok && labels[want[i]] == want[i+1]
		}
		if !ok {
			continue
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

const decisionsCell = `
const out = [await tools.callValue("openclaw:core:add", {}), await tools.callValue("openclaw:core:add", {})];
for (const disk of ["ok", "no", "forbidden"]) {
	try { out.push(await tools.callValue("openclaw:core:wipe", {disk})) } catch (e) { out.push("refused") }
}
return out`

// The counters move with the cells run: legs by kind and status, nested
// calls by server, decision and outcome, a parked run while it waits.
func TestMetricsMoveWithCells(t *testing.T) {
	o := newObserved(t)
	before := o.scrape(t)
	if r := o.exec(t, decisionsCell); r["status"] != "completed" {
		t.Fatal(r)
	}
	if r := o.exec(t, `throw new Error("no")`); r["status"] != "failed" {
		t.Fatal(r)
	}
	parked := o.exec(t, `return await tools.callValue("openclaw:core:gate", {})`)
	if parked["status"] != "waiting" {
		t.Fatal(parked)
	}
	mid := o.scrape(t)
	if v := value(mid, "codemode_parked_runs"); v != 1 {
		t.Errorf("parked runs while one waits: %v", v)
	}
	if v := value(mid, "codemode_sessions"); v != 1 {
		t.Errorf("sessions: %v", v)
	}
	close(o.gate)
	_, r := call(t, context.Background(), o.cs, "wait", map[string]any{"runId": parked["runId"]})
	if r["status"] != "completed" {
		t.Fatal(r)
	}
	after := o.scrape(t)
	for _, c := range []struct {
		name   string
		labels []string
		delta  float64
	}{
		{"codemode_cells_started_total", []string{"kind", "exec"}, 3},
		{"codemode_cells_started_total", []string{"kind", "wait"}, 1},
		{"codemode_cells_finished_total", []string{"kind", "exec", "status", "completed"}, 1},
		{"codemode_cells_finished_total", []string{"kind", "exec", "status", "failed", "code", "internal_error"}, 1},
		{"codemode_cells_finished_total", []string{"kind", "exec", "status", "waiting"}, 1},
		{"codemode_cells_finished_total", []string{"kind", "wait", "status", "completed"}, 1},
		{"codemode_cell_duration_seconds", []string{"kind", "exec"}, 3},
		{"codemode_nested_calls_total", []string{"server", "core", "decision", "allowed", "outcome", "ok"}, 3},
		{"codemode_nested_calls_total", []string{"server", "core", "decision", "approved", "outcome", "ok"}, 1},
		{"codemode_nested_calls_total", []string{"server", "core", "decision", "refused", "outcome", "error"}, 1},
		{"codemode_nested_calls_total", []string{"server", "core", "decision", "denied", "outcome", "error"}, 1},
		{"codemode_nested_call_duration_seconds", []string{"server", "core"}, 6},
	} {
		if d := value(after, c.name, c.labels...) - value(before, c.name, c.labels...); d != c.delta {
			t.Errorf("%s%v moved by %v, want %v", c.name, c.labels, d, c.delta)
		}
	}
	if v := value(after, "codemode_parked_runs"); v != 0 {
		t.Errorf("parked runs after the wait: %v", v)
	}
	if t.Failed() {
		t.Logf("logs:\n%s", o.logs.String())
	}
}

// /metrics needs the token when serve has one; the probes need none.
func TestMetricsNeedTheTokenAndProbesDoNot(t *testing.T) {
	o := newObserved(t)
	for _, hc := range []*http.Client{http.DefaultClient, bearerClient("Bearer " + strings.Repeat("x", 32))} {
		res, err := hc.Get(o.metrics)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("/metrics without the token: %s", res.Status)
		}
	}
	base := strings.TrimSuffix(o.url, "/mcp")
	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res.StatusCode, b.String()
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Fatalf("/healthz: %d", code)
	}
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "store: unreachable") {
		t.Fatalf("/readyz with the store down: %d %q", code, body)
	}
	for _, path := range []string{"/mcp", "/healthz/../mcp", "/metrics", "/readyz/x"} {
		if code, _ := get(path); code != http.StatusUnauthorized {
			t.Fatalf("%s without the token: %d", path, code)
		}
	}
}

// The audit trail holds a record per leg and per nested call, chained; a
// cell whose code and arguments are huge leaves records of hashes only.
func TestAuditTrailOfCells(t *testing.T) {
	o := newObserved(t)
	o.exec(t, decisionsCell)
	huge := strings.Repeat("x", 200<<10) // near the source bound
	code := fmt.Sprintf(`const s = %q; await tools.callValue("openclaw:core:add", {s}); return s.length`, huge)
	if r := o.exec(t, code); r["status"] != "completed" {
		t.Fatal(r)
	}
	if _, r := call(t, context.Background(), o.cs, "wait", map[string]string{"runId": huge}); r["status"] != "failed" {
		t.Fatal(r)
	}
	b, err := os.ReadFile(o.trail)
	if err != nil {
		t.Fatal(err)
	}
	n, _, err := ops.VerifyAudit(bytes.NewReader(b))
	if err != nil || n != 9 { // 5 calls and an exec, a call and an exec, a wait
		t.Fatalf("trail: %d records, %v\n%s", n, err, b)
	}
	var recs []ops.Record
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if len(line) > 1024 {
			t.Fatalf("a record of %d bytes: %.200s", len(line), line)
		}
		var r ops.Record
		json.Unmarshal([]byte(line), &r)
		recs = append(recs, r)
	}
	var decisions []string
	for _, r := range recs[:5] {
		decisions = append(decisions, r.Decision)
		if r.Kind != "call" || r.Tool == "" || r.ArgsSHA256 == "" || r.Principal != tokenPrincipal || r.Parent != recs[5].Call {
			t.Fatalf("call record: %+v", r)
		}
	}
	if got := strings.Join(decisions, " "); got != "allowed allowed approved refused denied" {
		t.Fatalf("decisions: %s", got)
	}
	exec := recs[7]
	if exec.Kind != "exec" || exec.CodeBytes != len(code) || exec.CodeSHA256 != ops.Digest([]byte(code)) || exec.Status != "completed" {
		t.Fatalf("exec record: %+v", exec)
	}
	if recs[6].ArgsBytes < 200<<10 || recs[6].ArgsSHA256 == "" {
		t.Fatalf("call of huge arguments: %+v", recs[6])
	}
	if w := recs[8]; w.Kind != "wait" || w.Run != "sha256:"+ops.Digest([]byte(huge)) {
		t.Fatalf("wait for a huge runId: %+v", w)
	}
	if strings.Contains(o.logs.String(), huge[:1000]) {
		t.Fatal("the huge runId is in the log")
	}
}

// One line per leg and per approval decision, with session and run ids.
func TestLogLinePerLegAndApproval(t *testing.T) {
	o := newObserved(t)
	o.exec(t, decisionsCell)
	parked := o.exec(t, `return await tools.callValue("openclaw:core:gate", {})`)
	close(o.gate)
	call(t, context.Background(), o.cs, "wait", map[string]any{"runId": parked["runId"]})
	var legs, approvals []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(o.logs.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("not a JSON log line: %s", line)
		}
		switch m["msg"] {
		case "cell leg":
			legs = append(legs, m)
		case "approval decision":
			approvals = append(approvals, m)
		}
	}
	if len(legs) != 3 || len(approvals) != 2 {
		t.Fatalf("%d leg lines and %d approval lines:\n%s", len(legs), len(approvals), o.logs.String())
	}
	for _, m := range append(legs, approvals...) {
		if s, _ := m["session"].(string); !strings.HasPrefix(s, "mcp_") {
			t.Fatalf("no session: %v", m)
		}
	}
	if legs[1]["run"] != parked["runId"] || legs[2]["run"] != parked["runId"] || legs[2]["kind"] != "wait" {
		t.Fatalf("legs of the parked run: %v", legs[1:])
	}
}

// A cell that names thousands of distinct made-up tool ids leaves the
// nested-call series as they were: such requests are refused before any
// tool, and labels never carry a tool id.
func TestMetricsCardinalityUnderUnknownIds(t *testing.T) {
	o := newObserved(t)
	r := o.exec(t, `let n = 0;
for (let i = 0; i < 3000; i++) { try { await tools.call("made.up.tool." + i, {}) } catch (e) { n++ } }
await tools.callValue("openclaw:core:add", {});
return n`)
	if r["status"] != "completed" || r["value"] != 3000.0 {
		t.Fatal(r)
	}
	fams := o.scrape(t)
	for _, name := range []string{"codemode_nested_calls_total", "codemode_nested_call_duration_seconds", "codemode_cells_finished_total"} {
		if n := len(fams[name].GetMetric()); n > 4 {
			t.Fatalf("%s has %d series", name, n)
		}
	}
}

// Stateless replicas over one run store each keep their own trail: a run
// parked on one and resumed on the other has its exec record in the first
// file and its wait record in the second, linked by run id and principal.
func TestAuditAcrossStatelessReplicas(t *testing.T) {
	store := store.NewMemoryRuns(0)
	replica := func(name string) (*sdk.ClientSession, string) {
		rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Runs: store, Replica: name,
			Tools: []tool.Tool{{Name: "add", Description: "Add.", InputSchema: json.RawMessage(`{"type":"object"}`),
				Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
					return tool.Result{Details: 3}, nil
				}}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close(context.Background()) })
		trail := filepath.Join(t.TempDir(), "audit-"+name+".jsonl")
		audit, err := ops.OpenAudit(trail)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { audit.Close() })
		url := (&fixture{rt: rt}).httpWith(t, &Options{Token: testToken, Stateless: true, Audit: audit, Observer: &Observer{}})
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: bearerClient("Bearer " + testToken)}, nil)
		t.Cleanup(func() { cs.Close() })
		return cs, trail
	}
	a, trailA := replica("a")
	b, trailB := replica("b")
	ctx := context.Background()
	_, r := call(t, ctx, a, "exec", map[string]string{"code": `await yield_control("turn"); return 2`})
	if r["status"] != "waiting" {
		t.Fatal(r)
	}
	if _, w := call(t, ctx, b, "wait", map[string]any{"runId": r["runId"]}); w["status"] != "completed" {
		t.Fatalf("wait on b: %v", w)
	}
	read := func(path string) ops.Record {
		b, _ := os.ReadFile(path)
		if n, _, err := ops.VerifyAudit(bytes.NewReader(b)); n != 1 || err != nil {
			t.Fatalf("%s: %d records, %v\n%s", path, n, err, b)
		}
		var rec ops.Record
		json.Unmarshal(b, &rec)
		return rec
	}
	exec, wait := read(trailA), read(trailB)
	if exec.Kind != "exec" || wait.Kind != "wait" || exec.Run != r["runId"] || wait.Run != exec.Run ||
		exec.Principal != tokenPrincipal || wait.Principal != tokenPrincipal || wait.Session != "principal:"+tokenPrincipal {
		t.Fatalf("records: %+v\n%+v", exec, wait)
	}
}

// Two sessions whose calls share an id (a run resumed from a store keeps
// the ids another replica gave it) keep their own decisions: an approval
// in one is not the other's.
func TestObserverDecisionsAreSessionScoped(t *testing.T) {
	obs := &Observer{}
	h := obs.Hooks(tool.Hooks{
		Approve: func(ctx context.Context, e tool.Event) (bool, string, error) {
			return e.Scope.SessionID == "a", "", nil
		},
	})
	ev := func(session string) tool.Event {
		return tool.Event{ToolKind: tool.KindNested, CallID: "tool_search_code:mcp_call_1:wipe:1", Scope: tool.Scope{SessionID: session}}
	}
	ctx := context.Background()
	h.Approve(ctx, ev("a"))
	h.AfterToolCall(ctx, ev("a"), tool.Result{}, nil)
	h.Approve(ctx, ev("b"))
	c := host.NestedCall{ID: ev("a").CallID, Error: "refused"}
	if d := obs.decision("b", c); d != ops.DecisionRefused {
		t.Errorf("session b: %s, want refused", d)
	}
	if d := obs.decision("a", c); d != ops.DecisionApproved {
		t.Errorf("session a: %s, want approved", d)
	}
}
