package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/seed11a79d2d/codemode/internal/redistest"
)

// otlpReceiver is an OTLP/HTTP trace endpoint that keeps what it is sent.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	attrs map[string]string // of the resource
}

func (rc *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		body = z
	}
	b, _ := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if r.URL.Path != "/v1/traces" || proto.Unmarshal(b, &req) != nil {
		http.Error(w, "not an OTLP trace export", 400)
		return
	}
	rc.mu.Lock()
	for _, rs := range req.ResourceSpans {
		if rc.attrs == nil {
			rc.attrs = map[string]string{}
		}
		for _, a := range rs.GetResource().GetAttributes() {
			rc.attrs[a.Key] = a.GetValue().GetStringValue()
		}
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func attr(s *tracepb.Span, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			if v, ok := a.GetValue().GetValue().(*commonpb.AnyValue_IntValue); ok {
				return fmt.Sprint(v.IntValue)
			}
			return a.GetValue().GetStringValue()
		}
	}
	return ""
}

// A real serve binary with OTLP/HTTP pointed at an in-test receiver: an exec
// that makes one nested call to a downstream HTTP server, parks, and is
// resumed by a wait that makes another. Each request continues the
// client's traceparent, every span hangs where it should, each downstream
// request carried its own span's traceparent, and no span holds the code
// or the arguments.
func TestServeTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	noTokenEnv(t)
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()

	// The downstream server records the traceparent of every request.
	var mu sync.Mutex
	var downstream []string
	echo := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	sdk.AddTool(echo, &sdk.Tool{Name: "echo", Description: "Echo."}, func(ctx context.Context, req *sdk.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Text}}}, nil, nil
	})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return echo }, nil)
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tp := r.Header.Get("traceparent"); tp != "" {
			mu.Lock()
			downstream = append(downstream, tp)
			mu.Unlock()
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	defer down.Close()

	config := writeFile(t, "codemode.json5", fmt.Sprintf(`{ tools: { codeMode: true }, plugins: { demo: false, tracker: false },
		mcpServers: { down: { url: %q } } }`, down.URL+"/mcp"))
	addr := freeAddr(t)
	args := []string{"serve", "--http", addr, "--config", config}
	_, noRedis := exec.LookPath("redis-server")
	if noRedis == nil { // the parked run's snapshot goes to the store, and its size into the exec's leg
		args = append(args, "--store", redistest.Start(t), "--store-key-file", writeFile(t, "store.key", "key-traces-0123456789abcdef0123456789abcdef"))
	}
	cmd := exec.Command(buildCommand(t), args...)
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL, "OTEL_BSP_SCHEDULE_DELAY=50", "OTEL_SERVICE_NAME=")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	const traceID, clientSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	hc := &http.Client{Transport: headerRoundTripper{"traceparent", "00-" + traceID + "-" + clientSpan + "-01"}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	var cs *sdk.ClientSession
	var err error
	for range 200 {
		if cs, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r map[string]any
		json.Unmarshal(b, &r)
		return r
	}
	// The tool may not be listed at once: the server connects in the background.
	code := `const a = await MCP.down.echo({ text: "first-secret-arg" }); await yield_control("later");
		const b = await MCP.down.echo({ text: "second-secret-arg" }); return a.content[0].text + b.content[0].text`
	var parked map[string]any
	for range 100 {
		if parked = call("exec", map[string]any{"code": code}); parked["status"] == "waiting" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if parked["status"] != "waiting" {
		t.Fatalf("exec: %v", parked)
	}
	if r := call("wait", map[string]any{"runId": parked["runId"]}); r["status"] != "completed" {
		t.Fatalf("wait: %v", r)
	}
	cs.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}

	recv.mu.Lock()
	defer recv.mu.Unlock()
	byName := map[string][]*tracepb.Span{}
	byID := map[string]*tracepb.Span{}
	for _, s := range recv.spans {
		byName[s.Name] = append(byName[s.Name], s)
		byID[hex.EncodeToString(s.SpanId)] = s
		if got := hex.EncodeToString(s.TraceId); got != traceID && strings.HasPrefix(s.Name, "tools/call") {
			t.Errorf("%s: trace %s, want the client's %s", s.Name, got, traceID)
		}
		for _, a := range s.Attributes {
			if v := a.GetValue().GetStringValue(); strings.Contains(v, "secret-arg") || strings.Contains(v, "yield_control") {
				t.Errorf("%s: %s holds code or arguments: %q", s.Name, a.Key, v)
			}
		}
	}
	if recv.attrs["service.name"] != "codemode" {
		t.Errorf("resource: %v", recv.attrs)
	}
	one := func(name string) *tracepb.Span {
		t.Helper()
		if len(byName[name]) != 1 {
			t.Fatalf("%d spans %q; have %v", len(byName[name]), name, names(recv.spans))
		}
		return byName[name][0]
	}
	parentIs := func(child, parent *tracepb.Span) {
		t.Helper()
		if !bytes.Equal(child.ParentSpanId, parent.SpanId) {
			t.Errorf("%s: parent %x, want %s (%x)", child.Name, child.ParentSpanId, parent.Name, parent.SpanId)
		}
	}
	execReq, waitReq := one("tools/call exec"), one("tools/call wait")
	for _, r := range []*tracepb.Span{execReq, waitReq} {
		if hex.EncodeToString(r.ParentSpanId) != clientSpan || r.Kind != tracepb.Span_SPAN_KIND_SERVER {
			t.Errorf("%s: parent %x kind %v, want the client's span %s", r.Name, r.ParentSpanId, r.Kind, clientSpan)
		}
	}
	execLeg, waitLeg := one("codemode.exec"), one("codemode.wait")
	parentIs(execLeg, execReq)
	parentIs(waitLeg, waitReq)
	if attr(execLeg, "codemode.cell.status") != "waiting" || attr(waitLeg, "codemode.cell.status") != "completed" || attr(execLeg, "codemode.engine") == "" {
		t.Errorf("leg attributes: %v / %v", execLeg.Attributes, waitLeg.Attributes)
	}
	if snap, _ := strconv.Atoi(attr(execLeg, "codemode.snapshot.bytes")); noRedis == nil && snap <= 0 {
		t.Errorf("the exec leg has no snapshot size: %v", execLeg.Attributes)
	}
	if len(waitLeg.Links) != 1 || !bytes.Equal(waitLeg.Links[0].SpanId, execLeg.SpanId) {
		t.Errorf("the wait leg does not link to the exec leg: %v", waitLeg.Links)
	}
	calls := byName["codemode.call mcp:down:echo"]
	reqs := byName["tools/call echo"]
	if len(calls) != 2 || len(reqs) != 2 {
		t.Fatalf("%d nested call spans, %d downstream request spans; have %v", len(calls), len(reqs), names(recv.spans))
	}
	seenLegs := map[string]bool{}
	for _, c := range calls {
		p := byID[hex.EncodeToString(c.ParentSpanId)]
		if p == nil || p != execLeg && p != waitLeg {
			t.Errorf("nested call's parent: %v", p)
			continue
		}
		seenLegs[p.Name] = true
		if attr(c, "codemode.tool.server") != "down" || attr(c, "codemode.call.decision") != "allowed" || attr(c, "codemode.call.outcome") != "ok" {
			t.Errorf("nested call attributes: %v", c.Attributes)
		}
	}
	if len(seenLegs) != 2 {
		t.Errorf("nested calls under %v, want one under each leg", seenLegs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(downstream) != 2 {
		t.Fatalf("downstream traceparents: %v", downstream)
	}
	for i, r := range reqs {
		p := byID[hex.EncodeToString(r.ParentSpanId)]
		if p == nil || p.Name != "codemode.call mcp:down:echo" || r.Kind != tracepb.Span_SPAN_KIND_CLIENT {
			t.Errorf("downstream request %d: parent %v kind %v", i, p, r.Kind)
		}
		want := "00-" + traceID + "-" + hex.EncodeToString(r.SpanId) + "-01"
		if !strings.Contains(strings.Join(downstream, " "), want) {
			t.Errorf("no downstream request carried %s: %v", want, downstream)
		}
	}
}

func names(spans []*tracepb.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

// headerRoundTripper adds one header to every request.
type headerRoundTripper struct{ key, value string }

func (h headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// An OTEL_* variable asking for what serve cannot do is a usage error.
func TestServeTraceEnvErrors(t *testing.T) {
	noTokenEnv(t)
	t.Setenv("OTEL_TRACES_EXPORTER", "zipkin")
	if _, stderr, code := cli(t, "", "serve"); code != exitUsage || !strings.Contains(stderr, `OTEL_TRACES_EXPORTER "zipkin": only otlp (or none) is supported`) {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}
