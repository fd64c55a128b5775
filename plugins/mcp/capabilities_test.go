package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server that declares neither resources nor prompts is not asked for
// them: lists are empty and a read says the server offers none, and not one
// request reaches it.
func TestUndeclaredFamiliesAreNotAsked(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "tools-only", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("ok")}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var asked atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			var body bytes.Buffer
			body.ReadFrom(r.Body)
			if strings.Contains(body.String(), `"resources/`) || strings.Contains(body.String(), `"prompts/`) {
				asked.Add(1)
			}
			r.Body = readCloser{&body}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	c := start(t, &Options{Servers: map[string]ServerConfig{"s": {URL: hs.URL}}})
	runtime(t, c, `{"enabled": true}`) // waits for the server's tools
	ctx := context.Background()
	for method, key := range map[string]string{
		"resources/list":           "resources",
		"resources/templates/list": "resourceTemplates",
		"prompts/list":             "prompts",
	} {
		res, err := c.MCPRequest(ctx, "s", method, nil)
		b, _ := json.Marshal(res)
		var got map[string]json.RawMessage
		json.Unmarshal(b, &got)
		if err != nil || string(got[key]) != "[]" {
			t.Errorf("%s: %s, %v; want an empty %s", method, b, err, key)
		}
	}
	for method, want := range map[string]string{
		"resources/read": "MCP server s offers no resources",
		"prompts/get":    "MCP server s offers no prompts",
	} {
		if _, err := c.MCPRequest(ctx, "s", method, json.RawMessage(`{"uri":"x:/y","name":"p"}`)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", method, err, want)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the server was asked %d resources or prompts requests", n)
	}
}
