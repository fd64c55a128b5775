package host

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host/internal/table"
	"github.com/seed11a79d2d/codemode/store"
)

// Run is one prepared model run: the runtime's table of tools (its own when
// it has client tools) and its model-visible tools.
type Run struct {
	rt     *Runtime
	opts   RunOptions
	active bool
	// searching marks a run whose surface is Tool Search's; it is never
	// active too.
	searching  bool
	tab        *table.Table
	namespaces []visibleNamespace
	visible    []ToolDefinition

	searches, describes, calls atomic.Int64
}

// Prepare binds a run's scope and client tools to the runtime's table of
// tools, and when code mode is active, its model surface. The table is built
// once per generation of the sources' tools; a run with client tools
// catalogues them with the table's tools.
func (r *Runtime) Prepare(opts RunOptions) (*Run, error) {
	t, err := r.tables.Current()
	if err != nil {
		return nil, err
	}
	if len(opts.ClientTools) > 0 {
		if t, err = r.tables.WithClient(t, opts.ClientTools); err != nil {
			return nil, err
		}
	}
	run := &Run{rt: r, opts: opts, tab: t}
	hasTools := !opts.DisableTools && !t.Empty()
	run.active = r.cfg.Enabled && hasTools
	run.searching = r.search.Enabled && hasTools
	switch {
	case run.active:
		run.resolveNamespaces()
		run.visible = append([]ToolDefinition{run.execDefinition(), table.WaitDefinition()}, t.Directs...)
		err = table.CheckSurface(run.visible, t.Directs)
	case run.searching:
		run.resolveNamespaces()
		run.visible = append(searchControls(r.search.Mode), t.Directs...)
		err = checkSearchSurface(run.visible, t.Directs, r.search.Mode)
	default:
		run.visible = slices.Clone(t.AllDefs)
	}
	if err != nil {
		return nil, err
	}
	run.logSurface()
	return run, nil
}

// Active reports whether code mode shapes this run's surface.
func (run *Run) Active() bool { return run.active }

// Tools returns the model-visible tool definitions: exec, wait and the
// direct-only tools when code mode is active, otherwise the effective tools
// unchanged.
func (run *Run) Tools() []ToolDefinition { return slices.Clone(run.visible) }

// Catalog returns the run's hidden catalog, or nil when code mode is off.
func (run *Run) Catalog() *catalog.Catalog { return run.tab.Catalog }

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
