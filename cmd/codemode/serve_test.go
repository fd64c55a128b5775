package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeStdio drives "codemode serve" in-process with the SDK's client
// over a pair of pipes, as an MCP client would over the process's stdio.
func TestServeStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"serve"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "chart_image,exec,wait" && got != "exec,wait,chart_image" {
		t.Errorf("tools = %s", got)
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `const r = await MCP.docs.searchDocs({ query: "shipping" }); return r.structuredContent.pages.length`}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var result struct {
		Status string
		Value  json.RawMessage
	}
	if json.Unmarshal(b, &result) != nil || result.Status != "completed" || string(result.Value) != "2" {
		t.Errorf("exec result = %s", b)
	}

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "chart_image", Arguments: map[string]any{}})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("chart_image: %v %+v", err, res)
	}
	if img, ok := res.Content[0].(*sdk.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) == 0 {
		t.Errorf("chart_image content = %#v", res.Content[0])
	}

	cs.Close()
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d: %s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("serve did not end when its input closed")
	}
}

func TestServeHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--http", addr}, strings.NewReader(""), io.Discard, &stderr)
	}()

	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	var cs *sdk.ClientSession
	for range 100 { // until the server listens
		cs, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: http.DefaultClient}, nil)
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "return 6 * 7"}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	cs.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "http://"+addr+"/mcp") {
		t.Errorf("stderr does not name the URL: %s", stderr.String())
	}
}
