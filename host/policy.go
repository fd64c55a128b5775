package host

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool kinds of hook events.
const (
	ToolKindCodeModeExec = "code_mode_exec" // the code-mode exec call itself
	ToolKindNested       = "nested_tool"    // a tool called from a cell
	ToolKindDirect       = "direct_tool"    // a model-visible tool called directly
	ToolKindToolSearch   = "tool_search"    // a Tool Search control call itself (tool_search_code, tool_search, ...)
)

// ToolEvent describes a tool call to hooks and approvers.
type ToolEvent struct {
	ToolKind string // ToolKindCodeModeExec, ToolKindToolSearch, ToolKindNested or ToolKindDirect
	// ToolInputKind is "javascript" or "typescript" for a code-mode exec.
	ToolInputKind string
	ToolName      string // the tool's own name ("exec" for the code-mode exec)
	ToolID        string // the exact catalog id of a nested call
	CallID        string // the nested call id, or the exec's tool-call id
	ParentCallID  string // the exec's tool-call id for nested calls
	Input         json.RawMessage
	Scope         Scope
	// MCPMethod is set on a nested call of an MCP server's resources or
	// prompts: "resources/list", "resources/read", "prompts/list" or
	// "prompts/get". ToolName is then the method, ToolID
	// mcp:<server>:<method> and Input the request's params. Such calls keep
	// ToolKindNested, so a hook that judges every nested call judges them.
	MCPMethod string
}

// Decision is a before-call hook's verdict. The zero value allows the call
// unchanged.
type Decision struct {
	// Block stops the call; the guest gets a catchable error with Reason.
	Block  bool
	Reason string
	// Input, when non-nil, replaces the call's input (a trusted rewrite).
	Input json.RawMessage
}

// Hooks see every call. Each may be nil. They run on the call's goroutine
// and must honour ctx.
type Hooks struct {
	BeforeToolCall func(ctx context.Context, e ToolEvent) Decision
	// AfterToolCall sees the outcome: the result, or the error the guest
	// will see.
	AfterToolCall func(ctx context.Context, e ToolEvent, result ToolResult, err error)
	// Approve decides calls of tools that require approval. It may block
	// until a person answers: the call stays pending like any slow call, so
	// exec returns waiting and wait continues once the decision arrives. A
	// false verdict is a catchable error with the reason.
	Approve func(ctx context.Context, e ToolEvent) (approved bool, reason string, err error)
}

func blocked(id, reason string) error {
	return fmt.Errorf("Tool %q was blocked before execution: %s", id, reason)
}

// contracts compiles trusted output schemas once per Runtime.
type contracts struct {
	mu       sync.Mutex
	compiled map[string]*contract // by catalog id and schema text
}

type contract struct {
	resolved *jsonschema.Resolved
	err      error
}

func (c *contracts) get(id string, schema json.RawMessage) *contract {
	key := id + "\x00" + string(schema)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.compiled[key]; ok {
		return k
	}
	if c.compiled == nil {
		c.compiled = map[string]*contract{}
	}
	k := &contract{}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		k.err = err
	} else {
		k.resolved, k.err = s.Resolve(nil)
	}
	c.compiled[key] = k
	return k
}

// checkDetails validates a result's details against the tool's declared
// output schema, and returns them as the JSON it checked, so they are not
// encoded again. The value is never printed: it may be large or private.
func checkDetails(k *contract, id string, details any) (any, error) {
	b, err := json.Marshal(details)
	if err != nil {
		return nil, fmt.Errorf("Tool %q returned details that are not JSON-compatible.", id)
	}
	var v any
	json.Unmarshal(b, &v)
	if k.resolved.Validate(v) != nil {
		return nil, fmt.Errorf("Tool %q returned details that do not match its declared outputSchema.", id)
	}
	return json.RawMessage(b), nil
}
