package tool

import (
	"context"
	"encoding/json"
	"errors"
)

// Source supplies tools to every prepared run, for example the tools of
// downstream MCP servers.
type Source interface {
	Tools() []Tool
	// Version changes whenever Tools would return another list (an MCP
	// tools/list_changed, a server that reconnects), once Tools returns the
	// new list. The host reads it on each Prepare and reads Tools, and
	// builds its table anew, only when it moved; a source whose tools never
	// change returns a constant.
	Version() uint64
}

// MCPSource is a [Source] of MCP server tools (tools with MCPServer set) that
// also serves those servers' resources and prompts.
type MCPSource interface {
	Source
	// MCPRequest runs method ("resources/list", "resources/read",
	// "resources/templates/list", "prompts/list" or "prompts/get") with JSON params on the named server.
	// It returns ErrUnknownServer for a server it does not own.
	MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error)
}

// Withholder is a [Source] that holds some of its tools back: a downstream
// tool whose definition changed since it was reviewed, until a person
// approves it. Quarantined says why a call of the exact catalog id cannot
// be made, or returns nil for an id it does not hold back.
type Withholder interface {
	Quarantined(id string) error
}

// ErrUnknownServer is returned by an [MCPSource] for a server it does not own.
var ErrUnknownServer = errors.New("unknown MCP server")
