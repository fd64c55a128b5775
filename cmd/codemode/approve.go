package main

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/plugins/tracker"
	"github.com/seed11a79d2d/codemode/tool"
)

// approver decides the calls that need approval. Those of tools.approval
// go to the person at the client: serve asks through elicitation (the
// relay); exec has no one to ask and follows tools.approval.withoutClient.
// The demo tracker's updates, which need approval by the plugin's own rule,
// keep the demo approver that stands in for a person, unless
// tools.approval names them too.
func (e *env) approver(useTracker bool, stderr io.Writer) func(context.Context, tool.Event) (bool, string, error) {
	var a config.Approval
	if e.file != nil {
		a = e.file.Approval
	}
	demo := demoApprover(stderr)
	trackerTools := catalog.ID(catalog.SourceOpenClaw, tracker.PluginID, "")
	return func(ctx context.Context, ev tool.Event) (bool, string, error) {
		named := slices.Contains(a.Tools, ev.ToolName) || slices.Contains(a.Tools, ev.ToolID)
		if useTracker && !named && strings.HasPrefix(ev.ToolID, trackerTools) {
			return demo(ctx, ev)
		}
		if e.relay != nil {
			return e.relay.Approve(ctx, ev)
		}
		if a.AllowWithoutClient {
			return true, "", nil
		}
		return false, "it needs a person's approval, and codemode exec has no one to ask (tools.approval.withoutClient is deny)", nil
	}
}
