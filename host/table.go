package host

import (
	"context"
	"slices"
	"time"

	"github.com/seed11a79d2d/codemode/host/internal/table"
)

// Policy is tools.allow, tools.deny, tools.directOnly and the approvals.
// Each entry names a tool by its name (shipping_list) or by its exact
// catalog id (openclaw:demo:shipping_list, mcp:docs:search_docs,
// client:app:pick); Allow and Deny name an MCP server's resource and prompt
// operations the same way: by method (resources/read, on every server) or
// by id (mcp:docs:resources/read).
type Policy = table.Policy

// ToolDefinition is a model-visible tool as MCP and the major providers
// expect it.
type ToolDefinition = table.Definition

// UnmatchedDirectOnly lists the Policy DirectOnly entries that name none of
// the tools the Runtime has now.
func (r *Runtime) UnmatchedDirectOnly() ([]string, error) { return r.tables.UnmatchedDirectOnly() }

// watchEvery is how often Watch reads the sources' versions: atomic loads,
// so the cost is nothing, and a client learns of new tools well within a
// second.
const watchEvery = 200 * time.Millisecond

// Watch calls changed after the sources' tools change (a source's Version
// moves), until ctx ends: a server of the runtime's surface, such as
// mcpserve, tells its clients that the tool list changed. It reads the
// versions every 200 ms.
func (r *Runtime) Watch(ctx context.Context, changed func()) {
	last := r.tables.Versions()
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if v := r.tables.Versions(); !slices.Equal(v, last) {
			last = v
			changed()
		}
	}
}
