package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/seed11a79d2d/codemode/plugins/tracker"
	"github.com/seed11a79d2d/codemode/tool"
)

// demoIssues are the tracker's issues in the demo catalog: three open, two
// closed, about the demo's own shipments and conversations.
func demoIssues() []tracker.Issue {
	return []tracker.Issue{
		{ID: "ISS-1", Title: "SHP-107 is 31 t but invoiced as 13 t", State: "open"},
		{ID: "ISS-2", Title: "Build bot posts twice on release days", State: "open"},
		{ID: "ISS-3", Title: "Finance wants unpaid shipments over 10 t each Monday", State: "open"},
		{ID: "ISS-4", Title: "SHP-101 marked paid without a receipt", State: "closed"},
		{ID: "ISS-5", Title: "Ops team channel renamed", State: "closed"},
	}
}

// demoApprovalDelay is how long the demo approver takes to grant a call. A
// cell that yields while Issues.update waits for it returns waiting, and the
// wait that follows completes once the grant arrives (examples/issues.js).
const demoApprovalDelay = 300 * time.Millisecond

// demoApprover stands in for the person who approves tracker updates: it
// announces each request on stderr, then grants it after demoApprovalDelay.
// The tracker is in memory and lives for one process, so granting
// everything changes nothing outside the process. A run that ends first (a
// closed runtime, --once) cancels ctx, and the request is dropped.
func demoApprover(stderr io.Writer) func(ctx context.Context, e tool.Event) (bool, string, error) {
	return func(ctx context.Context, e tool.Event) (bool, string, error) {
		fmt.Fprintf(stderr, "codemode: approval requested for %s %s; the demo approver grants it in %d ms\n",
			e.ToolID, e.Input, demoApprovalDelay.Milliseconds())
		t := time.NewTimer(demoApprovalDelay)
		defer t.Stop()
		select {
		case <-t.C:
			return true, "", nil
		case <-ctx.Done():
			return false, "", ctx.Err()
		}
	}
}
