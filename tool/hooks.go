package tool

import (
	"context"
	"encoding/json"
)

// Kind is what sort of call an [Event] describes.
type Kind string

// Kinds of hook events.
const (
	KindCodeModeExec Kind = "code_mode_exec" // the code-mode exec call itself
	KindNested       Kind = "nested_tool"    // a tool called from a cell
	KindDirect       Kind = "direct_tool"    // a model-visible tool called directly
	KindToolSearch   Kind = "tool_search"    // a Tool Search control call itself (tool_search_code, tool_search, ...)
)

func (k Kind) String() string { return string(k) }

// Event describes a tool call to hooks and approvers.
type Event struct {
	ToolKind Kind // KindCodeModeExec, KindToolSearch, KindNested or KindDirect
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
	// KindNested, so a hook that judges every nested call judges them.
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
	BeforeToolCall func(ctx context.Context, e Event) Decision
	// AfterToolCall sees the outcome: the result, or the error the guest
	// will see.
	AfterToolCall func(ctx context.Context, e Event, result Result, err error)
	// Approve decides calls of tools that require approval. It may block
	// until a person answers: the call stays pending like any slow call, so
	// exec returns waiting and wait continues once the decision arrives. A
	// false verdict is a catchable error with the reason.
	Approve func(ctx context.Context, e Event) (approved bool, reason string, err error)
}
