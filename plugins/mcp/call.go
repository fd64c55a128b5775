package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/tool"
)

// call runs tools/call. A result with isError is a value (the guest's promise
// resolves with it); a JSON-RPC error, a timeout or a lost connection is a Go
// error (the guest's promise rejects).
// With a relay, the call carries progress, a token naming the call, so that
// the server's progress notifications reach the client the call is for.
// call runs one tools/call; key names the tool's learned shape, empty for
// a tool that declares its output schema.
func (s *server) call(ctx context.Context, name, key, progress string, input json.RawMessage) (tool.Result, error) {
	session, err := s.current()
	if err != nil {
		return tool.Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.c.timeout)
	defer cancel()
	params := &sdk.CallToolParams{Name: name, Arguments: arguments(input)}
	if s.c.relay != nil {
		params.SetProgressToken(progress)
	}
	res, err := session.CallTool(ctx, params)
	if err != nil {
		return tool.Result{}, s.cleanErr(s.callError(ctx, session, "tool "+name, err))
	}
	if key != "" {
		if o, changed := s.learn.observe(key, res); changed {
			s.setObserved(name, o)
		}
	}
	content := make([]json.RawMessage, 0, len(res.Content))
	for _, c := range res.Content {
		b, err := json.Marshal(c)
		if err != nil {
			return tool.Result{}, fmt.Errorf("MCP server %s: tool %s: unreadable content: %v", s.name, name, err)
		}
		content = append(content, b)
	}
	details := map[string]any{"content": content}
	if res.StructuredContent != nil {
		details["structuredContent"] = res.StructuredContent
	}
	if res.IsError {
		details["isError"] = true
	}
	return s.clean(tool.Result{Content: content, Details: details}), nil
}

// arguments is the tools/call arguments object: {} for a missing or null
// input, never null (some servers reject null).
func arguments(input json.RawMessage) json.RawMessage {
	if len(input) == 0 || string(input) == "null" {
		return json.RawMessage("{}")
	}
	return input
}

// callError turns a failed request into the message the guest sees.
// A lost connection marks the session down at once, so the next call fails
// fast as unavailable instead of racing the supervisor.
func (s *server) callError(ctx context.Context, session *sdk.ClientSession, what string, err error) error {
	var rpc *jsonrpc.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("MCP server %s: %s timed out after %s", s.name, what, s.c.timeout)
	case errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("MCP server %s: %s cancelled", s.name, what)
	case errors.As(err, &rpc):
		return fmt.Errorf("MCP server %s: %s failed: %s (code %d)", s.name, what, rpc.Message, rpc.Code)
	case errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		s.lost(session, err)
		return fmt.Errorf("MCP server %s: connection lost during %s", s.name, what)
	}
	return fmt.Errorf("MCP server %s: %s failed: %v", s.name, what, err)
}

// request serves resources/list, resources/read, prompts/list and
// prompts/get.
func (s *server) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	session, err := s.current()
	if err != nil {
		return nil, err
	}
	if res, undeclared, err := undeclaredRequest(session, s.name, method); undeclared {
		return res, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.c.timeout)
	defer cancel()
	params = arguments(params)
	var res any
	switch method {
	case "resources/list":
		var p sdk.ListResourcesParams
		if err = json.Unmarshal(params, &p); err == nil {
			res, err = session.ListResources(ctx, &p)
		}
	case "resources/read":
		var p sdk.ReadResourceParams
		if err = json.Unmarshal(params, &p); err == nil {
			res, err = session.ReadResource(ctx, &p)
		}
	case "resources/templates/list":
		var p sdk.ListResourceTemplatesParams
		if err = json.Unmarshal(params, &p); err == nil {
			res, err = session.ListResourceTemplates(ctx, &p)
		}
	case "prompts/list":
		var p sdk.ListPromptsParams
		if err = json.Unmarshal(params, &p); err == nil {
			res, err = session.ListPrompts(ctx, &p)
		}
	case "prompts/get":
		var p sdk.GetPromptParams
		if err = json.Unmarshal(params, &p); err == nil {
			res, err = session.GetPrompt(ctx, &p)
		}
	default:
		return nil, fmt.Errorf("MCP server %s: unsupported method %s", s.name, method)
	}
	if err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		if errors.As(err, &syntax) || errors.As(err, &typ) {
			return nil, fmt.Errorf("MCP server %s: %s: invalid params: %v", s.name, method, err)
		}
		return nil, s.cleanErr(s.callError(ctx, session, method, err))
	}
	return s.cleanAny(res), nil
}

// undeclaredRequest answers a request of a family (resources, prompts) the
// server did not declare in its capabilities without asking it: a list is
// empty, a read or get fails saying so. Asking would only earn a "method
// not found" per request, and a warning each time a client lists.
func undeclaredRequest(session *sdk.ClientSession, server, method string) (res any, undeclared bool, err error) {
	var caps *sdk.ServerCapabilities
	if r := session.InitializeResult(); r != nil {
		caps = r.Capabilities
	}
	family, _, _ := strings.Cut(method, "/")
	switch {
	case family == "resources" && (caps == nil || caps.Resources == nil):
	case family == "prompts" && (caps == nil || caps.Prompts == nil):
	default:
		return nil, false, nil
	}
	switch method {
	case "resources/list":
		return &sdk.ListResourcesResult{Resources: []*sdk.Resource{}}, true, nil
	case "resources/templates/list":
		return &sdk.ListResourceTemplatesResult{ResourceTemplates: []*sdk.ResourceTemplate{}}, true, nil
	case "prompts/list":
		return &sdk.ListPromptsResult{Prompts: []*sdk.Prompt{}}, true, nil
	}
	return nil, true, fmt.Errorf("MCP server %s offers no %s", server, family)
}

// checkInputSchema returns the tool's input schema as JSON, or why it cannot
// be used: it must be an object schema whose properties are schemas and whose
// required list names strings.
func checkInputSchema(schema any) (json.RawMessage, error) {
	if schema == nil {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("input schema: %v", err)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil, errors.New("input schema is not a JSON object")
	}
	if t, ok := m["type"]; ok {
		var typ string
		if json.Unmarshal(t, &typ) != nil || typ != "object" {
			return nil, fmt.Errorf("input schema type is %s, not \"object\"", t)
		}
	}
	if p, ok := m["properties"]; ok {
		var props map[string]json.RawMessage
		if json.Unmarshal(p, &props) != nil || props == nil {
			return nil, errors.New("input schema properties is not an object")
		}
		for k, v := range props {
			if !isObject(v) && string(v) != "true" && string(v) != "false" {
				return nil, fmt.Errorf("input schema property %q is not a schema", k)
			}
		}
	}
	if r, ok := m["required"]; ok {
		var req []string
		if json.Unmarshal(r, &req) != nil {
			return nil, errors.New("input schema required is not an array of strings")
		}
	}
	return b, nil
}

func isObject(b []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}
