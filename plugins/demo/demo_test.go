package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/png"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/tool"
)

func toolNamed(t *testing.T, p *Plugin, name string) tool.Tool {
	t.Helper()
	for _, tl := range p.Tools() {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q", name)
	return tool.Tool{}
}

func call(t *testing.T, p *Plugin, name, input string) (tool.Result, error) {
	t.Helper()
	return toolNamed(t, p, name).Execute(context.Background(), tool.Call{ToolID: "openclaw:demo:" + name, Input: json.RawMessage(input)})
}

// roundTrip is the details as a cell would see them.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

func TestTools(t *testing.T) {
	p := New()
	var names []string
	for _, tl := range p.Tools() {
		names = append(names, tl.Name)
		if tl.Plugin != PluginID {
			t.Errorf("%s: Plugin = %q", tl.Name, tl.Plugin)
		}
		if tl.Execute == nil || !json.Valid(tl.InputSchema) || (tl.OutputSchema != nil && !json.Valid(tl.OutputSchema)) {
			t.Errorf("%s: incomplete tool", tl.Name)
		}
		if tl.DirectOnly != (tl.Name == "chart_image") {
			t.Errorf("%s: DirectOnly = %v", tl.Name, tl.DirectOnly)
		}
	}
	want := "shipping_list shipping_mark_paid conversations_list conversations_send slow_echo always_fail chart_image"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools = %s", got)
	}
}

func TestShipping(t *testing.T) {
	p := New()
	res, err := call(t, p, "shipping_list", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	rows := roundTrip(t, res.Details).([]any)
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 12", len(rows))
	}
	first := rows[0].(map[string]any)
	if len(first) != 3 || first["id"] != "SHP-101" || first["paid"] != true || first["tons"] != 4.0 {
		t.Errorf("first row = %v", first)
	}

	res, err = call(t, p, "shipping_mark_paid", `{"id":"SHP-102"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := roundTrip(t, res.Details).(map[string]any); got["changed"] != true || got["paid"] != true {
		t.Errorf("mark paid = %v", got)
	}
	if !p.Shipments()[1].Paid {
		t.Error("SHP-102 not paid after shipping_mark_paid")
	}
	res, _ = call(t, p, "shipping_mark_paid", `{"id":"SHP-102"}`)
	if got := roundTrip(t, res.Details).(map[string]any); got["changed"] != false {
		t.Errorf("second mark paid = %v, want changed false", got)
	}
	if _, err := call(t, p, "shipping_mark_paid", `{"id":"SHP-999"}`); err == nil || !strings.Contains(err.Error(), "unknown shipment") {
		t.Errorf("unknown id: err = %v", err)
	}
	if New().Shipments()[1].Paid {
		t.Error("a new Plugin shares state with another")
	}
}

func TestConversations(t *testing.T) {
	p := New()
	res, err := call(t, p, "conversations_list", `{"query":"build bot"}`)
	if err != nil {
		t.Fatal(err)
	}
	convs := roundTrip(t, res.Details).(map[string]any)["conversations"].([]any)
	if len(convs) != 1 || convs[0].(map[string]any)["label"] != "Build bot" {
		t.Fatalf("conversations = %v", convs)
	}
	res, _ = call(t, p, "conversations_list", `{}`)
	if n := len(roundTrip(t, res.Details).(map[string]any)["conversations"].([]any)); n != 4 {
		t.Errorf("unfiltered list has %d conversations, want 4", n)
	}
	res, err = call(t, p, "conversations_send", `{"conversationRef":"conv_build_91c2","message":"Build finished."}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := roundTrip(t, res.Details).(map[string]any); got["ok"] != true || got["messageId"] != "msg_1" {
		t.Errorf("send = %v", got)
	}
	if sent := p.Sent(); len(sent) != 1 || sent[0].Message != "Build finished." {
		t.Errorf("Sent = %v", sent)
	}
	for _, in := range []string{`{"conversationRef":"nope","message":"x"}`, `{"conversationRef":"conv_build_91c2","message":" "}`, `{"message":`} {
		if _, err := call(t, p, "conversations_send", in); err == nil {
			t.Errorf("send %s: no error", in)
		}
	}
}

func TestSlowEcho(t *testing.T) {
	p := New()
	res, err := call(t, p, "slow_echo", `{"ms":1,"value":{"a":[1]}}`)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.Details); string(got) != `{"sleptMs":1,"value":{"a":[1]}}` {
		t.Errorf("details = %s", got)
	}
	for _, in := range []string{`{}`, `{"ms":-1}`, `{"ms":1.5}`, `{"ms":60001}`} {
		if _, err := call(t, p, "slow_echo", in); err == nil {
			t.Errorf("slow_echo %s: no error", in)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = toolNamed(t, p, "slow_echo").Execute(ctx, tool.Call{Input: json.RawMessage(`{"ms":60000}`)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled slow_echo: err = %v", err)
	}
}

func TestAlwaysFail(t *testing.T) {
	if _, err := call(t, New(), "always_fail", `{"anything":1}`); err == nil {
		t.Error("always_fail did not fail")
	}
}

func TestChartImage(t *testing.T) {
	res, err := call(t, New(), "chart_image", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	var block struct{ Type, MimeType, Data string }
	if len(res.Content) != 1 || json.Unmarshal(res.Content[0], &block) != nil || block.Type != "image" || block.MimeType != "image/png" {
		t.Fatalf("content = %s", res.Content)
	}
	raw, err := base64.StdEncoding.DecodeString(block.Data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 4+12*14 || b.Dy() != 64 {
		t.Errorf("image is %v", b)
	}
}

func TestDocsServer(t *testing.T) {
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := NewDocsServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": "ops shipping", "limit": 2}})
	if err != nil || res.IsError {
		t.Fatalf("search_docs: %v %v", err, res)
	}
	got, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(got), `"slug":"shipping"`) || !strings.Contains(string(got), `"slug":"oncall"`) {
		t.Errorf("search_docs = %s", got)
	}
	res, _ = cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": 3}})
	if !res.IsError {
		t.Error("search_docs with a number query is not an error result")
	}
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "memo://one"})
	if err != nil || len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, "Release memo") {
		t.Errorf("memo://one = %v, %v", rr, err)
	}
	pr, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "brief", Arguments: map[string]string{"topic": "release"}})
	if err != nil || len(pr.Messages) != 1 || !strings.Contains(pr.Messages[0].Content.(*sdk.TextContent).Text, "brief on release") {
		t.Errorf("brief = %v, %v", pr, err)
	}
}

func TestNamespaces(t *testing.T) {
	nss := New().Namespaces()
	if len(nss) != 1 || nss[0].GlobalName != "Shipping" {
		t.Fatalf("namespaces = %+v", nss)
	}
	scope, err := nss[0].CreateScope(context.Background(), tool.NamespaceContext{})
	if err != nil || scope.(map[string]any)["unit"] != "tons" {
		t.Errorf("scope = %v, %v", scope, err)
	}
	in, err := markPaidInput([]json.RawMessage{json.RawMessage(`"SHP-101"`)})
	if err != nil || string(in) != `{"id":"SHP-101"}` {
		t.Errorf("markPaidInput = %s, %v", in, err)
	}
	for _, args := range [][]json.RawMessage{nil, {json.RawMessage(`7`)}} {
		if _, err := markPaidInput(args); err == nil {
			t.Errorf("markPaidInput(%s): no error", args)
		}
	}
}
