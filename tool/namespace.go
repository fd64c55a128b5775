package tool

import (
	"context"
	"encoding/json"
)

// Namespace is a plugin's concise domain API for cells, such as
// Issues.list({ state: "open" }). Its callable members map onto the plugin's
// own catalogued tools and run through the same executor as catalog calls.
type Namespace struct {
	ID          string
	GlobalName  string // the guest global, also namespaces.<GlobalName>
	Description string // appended to the exec description when visible
	Prompt      string
	// RequiredToolNames must all be in a run's catalog, owned by the
	// registering plugin, for the namespace to be visible; callable members
	// may target only these tools.
	RequiredToolNames []string
	// CreateScope builds the guest object for one exec: JSON values, slices,
	// map[string]any and [NamespaceTool] markers. Other values become JSON
	// (or strings); raw functions are refused.
	CreateScope func(ctx context.Context, nc NamespaceContext) (any, error)
}

// NamespaceContext is the run context a scope is created with.
type NamespaceContext struct {
	Scope Scope
	// Config is the runtime's resolved code-mode configuration, a
	// host.Config. It is typed any so that this package, and so a plugin,
	// need not link the host.
	Config any
}

// NamespaceCallable marks a scope member as callable; see [NamespaceTool].
type NamespaceCallable struct {
	tool   string
	mapper func(args []json.RawMessage) (json.RawMessage, error)
}

// NamespaceTool makes a callable scope member that calls the plugin's tool
// named toolName. mapper turns the guest's arguments into the tool's input;
// without one the first argument (or {}) is the input.
func NamespaceTool(toolName string, mapper func(args []json.RawMessage) (json.RawMessage, error)) *NamespaceCallable {
	return &NamespaceCallable{tool: toolName, mapper: mapper}
}

// ToolName is the name of the plugin tool the member calls.
func (c *NamespaceCallable) ToolName() string { return c.tool }

// Input is the tool input for a call with the guest's arguments args.
func (c *NamespaceCallable) Input(args []json.RawMessage) (json.RawMessage, error) {
	switch {
	case c.mapper != nil:
		return c.mapper(args)
	case len(args) > 0 && string(args[0]) != "null":
		return args[0], nil
	}
	return json.RawMessage("{}"), nil
}
