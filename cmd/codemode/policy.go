package main

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host"
)

// toolPolicy is the configuration's tools.allow, tools.deny and
// tools.directOnly. Each entry names a tool by its name (shipping_list) or
// its exact catalog id (openclaw:demo:shipping_list, mcp:docs:search_docs).
// Allow and deny name an MCP server's resource and prompt operations the
// same way: by method (resources/read, on every server) or by id
// (mcp:docs:resources/read); an allow list that names neither refuses the
// operation.
//
// The command applies the policy where tools enter the runtime, not per run,
// so exec, catalog and serve (whose runs are prepared by mcpserve) all see
// the same effective tool list.
type toolPolicy struct {
	allow      []string // nil: every tool; empty: none
	deny       []string
	directOnly []string
}

// toolID is the catalog id a tool gets, or an MCP operation's id.
func toolID(t host.Tool) string {
	switch {
	case t.MCPServer != "":
		return catalog.ID(catalog.SourceMCP, t.MCPServer, t.Name)
	case t.Plugin != "":
		return catalog.ID(catalog.SourceOpenClaw, t.Plugin, t.Name)
	}
	return catalog.ID(catalog.SourceOpenClaw, "core", t.Name)
}

func names(list []string, t host.Tool) bool {
	return slices.Contains(list, t.Name) || slices.Contains(list, toolID(t))
}

// tools returns the tools the policy keeps, direct-only marks applied.
func (p toolPolicy) tools(in []host.Tool) []host.Tool {
	out := []host.Tool{}
	for _, t := range in {
		if (p.allow != nil && !names(p.allow, t)) || names(p.deny, t) {
			continue
		}
		if names(p.directOnly, t) {
			t.DirectOnly = true
		}
		out = append(out, t)
	}
	return out
}

// source applies the policy to a source's tools, list after list.
func (p toolPolicy) source(src host.MCPSource) host.Source {
	if p.allow == nil && len(p.deny) == 0 && len(p.directOnly) == 0 {
		return src
	}
	return policySource{src, p}
}

type policySource struct {
	src    host.MCPSource
	policy toolPolicy
}

func (s policySource) Tools() []host.Tool { return s.policy.tools(s.src.Tools()) }

func (s policySource) MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error) {
	return s.src.MCPRequest(ctx, server, method, params)
}

// MCPOperations implements [host.MCPOperationPolicy]: the host offers each
// operation as a tool named after its method on its server, so allow and
// deny match it like a tool. It is never direct-only: the host ignores that
// mark on operations.
func (s policySource) MCPOperations(offered []host.Tool) []host.Tool {
	return s.policy.tools(offered)
}

// unmatchedDirectOnly lists directOnly entries that name no tool.
func (p toolPolicy) unmatchedDirectOnly(tools []host.Tool, sources []host.Source) []string {
	all := slices.Clone(tools)
	for _, s := range sources {
		all = append(all, s.Tools()...)
	}
	var out []string
	for _, n := range p.directOnly {
		if !slices.ContainsFunc(all, func(t host.Tool) bool { return t.Name == n || toolID(t) == n }) {
			out = append(out, n)
		}
	}
	return out
}
