package host

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// ToolDefinition is a model-visible tool as MCP and the major providers
// expect it. Title, OutputSchema and Annotations are set for a tool passed
// through that has them.
type ToolDefinition struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// Run is one prepared model run: the runtime's table of tools (its own when
// it has client tools) and its model-visible tools.
type Run struct {
	rt     *Runtime
	opts   RunOptions
	active bool
	// searching marks a run whose surface is Tool Search's; it is never
	// active too.
	searching bool
	*table
	namespaces []visibleNamespace
	visible    []ToolDefinition

	searches, describes, calls atomic.Int64
}

// helpers the guest's tools object already has; convenience names never
// shadow them.
var guestHelpers = []string{"search", "describe", "call", "callValue"}

// Prepare binds a run's scope and client tools to the runtime's table of
// tools, and when code mode is active, its model surface. The table is built
// once per generation of the sources' tools; a run with client tools
// catalogues them with the table's tools.
func (r *Runtime) Prepare(opts RunOptions) (*Run, error) {
	t, err := r.current()
	if err != nil {
		return nil, err
	}
	if len(opts.ClientTools) > 0 {
		if t, err = r.withClient(t, opts.ClientTools); err != nil {
			return nil, err
		}
	}
	run := &Run{rt: r, opts: opts, table: t}
	hasTools := !opts.DisableTools && len(t.effective) > 0
	run.active = r.cfg.Enabled && hasTools
	run.searching = r.search.Enabled && hasTools
	switch {
	case run.active:
		run.resolveNamespaces()
		run.visible = append([]ToolDefinition{run.execDefinition(), waitDefinition()}, t.directs...)
		err = checkSurface(run.visible, t.directs)
	case run.searching:
		run.resolveNamespaces()
		run.visible = append(searchControls(r.search.Mode), t.directs...)
		err = checkSearchSurface(run.visible, t.directs, r.search.Mode)
	default:
		run.visible = slices.Clone(t.allDefs)
	}
	if err != nil {
		return nil, err
	}
	run.logSurface()
	return run, nil
}

func isToolSearchControl(name string) bool {
	switch name {
	case "tool_search_code", "tool_search", "tool_describe", "tool_call":
		return true
	}
	return false
}

// checkSurface is the final fail-closed check: exactly one exec, one wait,
// and only the approved direct-only tools.
func checkSurface(visible, direct []ToolDefinition) error {
	var execs, waits int
	for _, d := range visible {
		switch {
		case d.Name == "exec":
			if !strings.HasPrefix(d.Description, execIntro) {
				return fmt.Errorf("%w: an exec that is not code mode's", ErrFailClosed)
			}
			execs++
		case d.Name == "wait":
			if d.Description != waitDescription {
				return fmt.Errorf("%w: a wait that is not code mode's", ErrFailClosed)
			}
			waits++
		case isToolSearchControl(d.Name):
			return fmt.Errorf("%w: Tool Search control %q", ErrFailClosed, d.Name)
		case !slices.ContainsFunc(direct, func(x ToolDefinition) bool { return x.Name == d.Name }):
			return fmt.Errorf("%w: %q is neither a control nor a direct-only tool", ErrFailClosed, d.Name)
		}
	}
	if execs != 1 || waits != 1 {
		return fmt.Errorf("%w: want one exec and one wait, have %d and %d", ErrFailClosed, execs, waits)
	}
	return nil
}

func definition(t *tool.Tool) ToolDefinition {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return ToolDefinition{Name: t.Name, Title: t.Label, Description: t.Description, InputSchema: schema,
		OutputSchema: t.OutputSchema, Annotations: t.Annotations}
}

// Active reports whether code mode shapes this run's surface.
func (run *Run) Active() bool { return run.active }

// Tools returns the model-visible tool definitions: exec, wait and the
// direct-only tools when code mode is active, otherwise the effective tools
// unchanged.
func (run *Run) Tools() []ToolDefinition { return slices.Clone(run.visible) }

// Catalog returns the run's hidden catalog, or nil when code mode is off.
func (run *Run) Catalog() *catalog.Catalog { return run.catalog }

// jsString quotes s as a JavaScript string literal (a JSON string is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Abort ends the run's suspended cells: their in-flight nested calls are
// cancelled and their snapshots dropped, so a later wait fails. Cells that
// are executing stop when the context given to Exec or Wait is cancelled.
//
// With a store.Runs, only the runs this process parked and still runs calls
// of are known here: those leave the store too.
func (run *Run) Abort() {
	run.rt.store.drop(func(st *state) bool { return st.run == run })
	run.rt.flights.cancel(func(st *state) bool {
		if st.run != run {
			return false
		}
		if err := run.rt.runs.Remove(context.Background(), st.id); err != nil {
			run.rt.logger.Warn("code mode run store: an aborted run was not removed", "run", st.id, "err", err)
		}
		return true
	})
}

// EndSession drops the suspended runs and the stored values of a session (by
// session key and id).
func (r *Runtime) EndSession(sessionKey, sessionID string) {
	r.store.drop(func(st *state) bool {
		s := st.run.opts.Scope
		return s.SessionKey == sessionKey && s.SessionID == sessionID
	})
	r.flights.cancel(func(st *state) bool {
		s := st.run.opts.Scope
		return s.SessionKey == sessionKey && s.SessionID == sessionID
	})
	if r.runs != nil {
		if err := r.runs.DropSession(context.Background(), store.Session{Key: sessionKey, ID: sessionID}); err != nil {
			r.logger.Warn("code mode run store: a session's runs were not dropped", "session", sessionID, "err", err)
		}
	}
	if err := r.sessions.Drop(context.Background(), store.Session{Key: sessionKey, ID: sessionID}); err != nil {
		r.logger.Warn("code mode session state not dropped", "session", sessionID, "err", err)
	}
}

func (run *Run) clientTool(t *tool.Tool) bool { return run.client[t] }
