package table

import (
	"encoding/json"
	"slices"
)

// Policy is tools.allow, tools.deny and tools.directOnly. Each entry names a
// tool by its name (shipping_list) or by its exact catalog id
// (openclaw:demo:shipping_list, mcp:docs:search_docs, client:app:pick).
// Allow and Deny name an MCP server's resource and prompt operations the same
// way: by method (resources/read, on every server) or by id
// (mcp:docs:resources/read).
type Policy struct {
	// Allow, when non-nil, keeps only the tools and operations it names; an
	// empty list keeps none.
	Allow []string
	// Deny removes the tools and operations it names.
	Deny []string
	// DirectOnly marks the tools it names as [tool.Tool] DirectOnly does. It does
	// not apply to operations.
	DirectOnly []string
	// Approval sends every call of the tools and operations it names
	// through [tool.Hooks.Approve] first, as [tool.Tool] RequireApproval does.
	Approval []string
	// ApproveDestructive does the same for every tool whose MCP annotations
	// mark it destructive (see [Destructive]).
	ApproveDestructive bool
}

// Destructive reports whether MCP tool annotations mark a tool as one that
// may destroy or overwrite: destructiveHint true, or, as MCP defines the
// hints, readOnlyHint not true and destructiveHint absent. A tool with no
// annotations is not marked; annotations that do not parse are.
func Destructive(annotations json.RawMessage) bool {
	if len(annotations) == 0 {
		return false
	}
	var a struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
	}
	if json.Unmarshal(annotations, &a) != nil {
		return true
	}
	if a.ReadOnly != nil && *a.ReadOnly {
		return false
	}
	return a.Destructive == nil || *a.Destructive
}

func named(list []string, name, id string) bool {
	return slices.Contains(list, name) || slices.Contains(list, id)
}

// keeps is the one allow and deny rule, for tools and operations alike.
func (p *Policy) Keeps(name, id string) bool {
	return (p.Allow == nil || named(p.Allow, name, id)) && !named(p.Deny, name, id)
}
