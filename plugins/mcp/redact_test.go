package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/redact"
)

const fakeToken = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

// leakyServer returns a credential in a tool's text and structured
// content, and in a resource.
func leakyServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "leaky", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "env", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("GITHUB_TOKEN=" + fakeToken + "\nSECRET=configured-secret-1"),
				StructuredContent: map[string]any{"env": map[string]any{"GITHUB_TOKEN": fakeToken}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "boom", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "auth failed for " + fakeToken}
		})
	s.AddResource(&sdk.Resource{URI: "memo://env", Name: "env"}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "memo://env", Text: "token " + fakeToken}}}, nil
	})
	return s
}

// A server with redact on: the cell sees markers, in text, structured
// content and resources, and the configured secret too; with it off, the
// result is as the server sent it.
func TestRedactedResults(t *testing.T) {
	x := redact.New(redact.Options{Secrets: []string{"configured-secret-1"}})
	on := connectTo(t, leakyServer(), "")
	on.Redact = true
	off := connectTo(t, leakyServer(), "")
	c := start(t, &Options{Servers: map[string]ServerConfig{"on": on, "off": off}, Redact: x})
	out := value(t, runtime(t, c, `true`), `const on = await MCP.on.env({}), off = await MCP.off.env({});
let boom; try { await MCP.on.boom({}) } catch (e) { boom = e.message }
return {on: JSON.stringify(on), off: JSON.stringify(off), res: JSON.stringify(await MCP.on.resources.read({uri: "memo://env"})), boom}`)
	for _, k := range []string{"on", "res", "boom"} {
		s := out[k].(string)
		if strings.Contains(s, fakeToken) || strings.Contains(s, "configured-secret-1") || !strings.Contains(s, "[REDACTED:github-token]") {
			t.Errorf("%s: %s", k, s)
		}
	}
	if !strings.Contains(out["on"].(string), "[REDACTED:config-secret]") {
		t.Errorf("the configured secret: %s", out["on"])
	}
	if !strings.Contains(out["off"].(string), fakeToken) {
		t.Errorf("redact off changed the result: %s", out["off"])
	}
}
