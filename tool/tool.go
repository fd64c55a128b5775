// Package tool is what a tool's implementer sees of Code Mode: a [Tool] and
// the [Call] it executes, the [Result] it returns, the [Scope] of the run,
// the [Source]s that supply tools, the [Hooks] that judge calls, and the
// [Namespace]s a plugin offers cells.
//
// It is a leaf: it links no engine, so that a plugin or a tool server can
// be built, tested and vendored without the JavaScript sandbox. The host
// (package host) runs what is declared here.
package tool

import (
	"context"
	"encoding/json"
)

// Tool is a tool a Go program registers, or a client tool supplied per run.
type Tool struct {
	Name        string
	Label       string
	Description string
	// Plugin is the owning plugin id; empty for core tools. For client tools
	// it is the owner named in the catalog id ("client" when empty).
	Plugin string
	// MCPServer names the downstream MCP server of an MCP tool; its Execute
	// returns the MCP result {content, structuredContent?, isError?} as
	// Details. MCP tools are reached only through the guest's MCP namespace.
	MCPServer    string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Annotations are an MCP tool's annotations (readOnlyHint,
	// destructiveHint, ...) as JSON, passed on with the tool when it is
	// model-visible.
	Annotations json.RawMessage
	// ReplaySafe marks a read-only tool a restart-safe run may call. It
	// counts for core and plugin tools only. A core tool (no Plugin, no
	// MCPServer, not a client tool) whose name is on the audited read-only
	// list is replay-safe without it; the list is
	// [github.com/seed11a79d2d/codemode/catalog.AuditedReplaySafe].
	ReplaySafe bool
	// DirectOnly tools stay visible to the model and are never catalogued.
	DirectOnly bool
	// Observed is what an MCP tool without an OutputSchema was seen to
	// return, learned from its results; nil until it returned one.
	Observed *Observed
	// RequireApproval sends every call through [Hooks.Approve] first.
	RequireApproval bool
	// Execute runs the tool. It must honour ctx cancellation.
	Execute func(ctx context.Context, call Call) (Result, error)
}

// Call is one nested tool call as its executor sees it.
type Call struct {
	ID     string // nested tool-call id, unique within the run
	ToolID string // exact catalog id
	Input  json.RawMessage
	Scope  Scope
	// ParentCallID is the model's tool-call id of the exec that made the call.
	ParentCallID string
}

// Result is what a tool returns: content blocks for a model and the
// JSON-compatible details a cell receives from tools.callValue.
type Result struct {
	Content []json.RawMessage `json:"content,omitempty"`
	Details any               `json:"details,omitempty"`
}

// Scope identifies the run a call belongs to; wait refuses callers of
// another.
type Scope struct {
	AgentID    string
	SessionKey string
	SessionID  string
	RunID      string
}

// Observed is the shape of a tool's results learned over calls: a
// TypeScript type with no values in it, what part of the result it
// describes, and how many results it was learned from.
type Observed struct {
	// Of is "structuredContent", or "JSON.parse(content[0].text)" for a
	// tool that answers with one text item holding JSON.
	Of    string
	Type  string
	Calls int
}
