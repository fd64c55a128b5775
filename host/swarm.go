package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/host/internal/swarm"
)

// SwarmConfig is the resolved tools.swarm: agents.run, phase and log in
// cells. Code mode alone does not turn it on.
type SwarmConfig = swarm.Config

// Agents runs the sub-agents that cells start with agents.run (see
// [Options] Agents); AgentFunc is a function as Agents.
type (
	Agents       = swarm.Agents
	AgentFunc    = swarm.Func
	AgentRequest = swarm.Request
	AgentRetry   = swarm.Retry
)

var swarmIntFields = []configIntField{
	{"maxConcurrent", 8, 1, 64},
	{"maxAgentsPerCell", 32, 1, 256},
}

// ResolveSwarm resolves tools.swarm by the rules of tools.codeMode: true is
// {"enabled":true}, false, null and missing are {}, enabled: true is the
// only switch, a wrong JSON type is a *ConfigError naming the dotted field,
// a number that is not a positive integer takes its default and one out of
// bounds is clamped, each with a warning, and unknown keys are warnings.
// provider is not read: it is the embedding program's (see [Agents]).
func ResolveSwarm(raw json.RawMessage) (SwarmConfig, []string, error) {
	const prefix = "tools.swarm"
	c := SwarmConfig{}
	var warnings []string
	obj := map[string]json.RawMessage{}
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0, string(raw) == "null", string(raw) == "false":
	case string(raw) == "true":
		obj["enabled"] = raw
	case raw[0] != '{':
		return c, nil, &ConfigError{prefix, "must be a boolean or an object"}
	default:
		if err := json.Unmarshal(raw, &obj); err != nil {
			return c, nil, &ConfigError{prefix, "invalid JSON: " + err.Error()}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) { // deterministic messages
		v := bytes.TrimSpace(obj[k])
		field := prefix + "." + k
		switch {
		case string(v) == "null":
			delete(obj, k)
		case k == "enabled":
			if string(v) != "true" && string(v) != "false" {
				return c, nil, &ConfigError{field, "must be a boolean"}
			}
		case k == "provider":
			// The embedding program's: it picks who runs the children
			// (package provider resolves it), so the host leaves it alone.
		case slices.ContainsFunc(swarmIntFields, func(f configIntField) bool { return f.key == k }):
			var n json.Number
			if v[0] == '"' || json.Unmarshal(v, &n) != nil {
				return c, nil, &ConfigError{field, "must be a number"}
			}
		default:
			warnings = append(warnings, unknownKey(field, k, swarmKeys()))
		}
	}
	c.Enabled = string(bytes.TrimSpace(obj["enabled"])) == "true"
	ints := map[string]int{}
	for _, f := range swarmIntFields {
		ints[f.key], warnings = resolveConfigInt(obj[f.key], f, prefix+"."+f.key, warnings)
	}
	c.MaxConcurrent, c.MaxAgentsPerCell = ints["maxConcurrent"], ints["maxAgentsPerCell"]
	return c, warnings, nil
}

// normalizedSwarm clamps a SwarmConfig built in Go by ResolveSwarm's rules.
func normalizedSwarm(c SwarmConfig) SwarmConfig {
	c.MaxConcurrent = swarmIntFields[0].clamp(int64(c.MaxConcurrent))
	c.MaxAgentsPerCell = swarmIntFields[1].clamp(int64(c.MaxAgentsPerCell))
	return c
}

// swarmSetup is the last argument of a cell's __cm_setup: the prelude
// defines agents, phase and log only when it is true.
func (r *Runtime) swarmSetup() string {
	if r.swarm.Enabled {
		return ",true"
	}
	return ""
}

// swarmText tells the model of agents.run in the exec description.
func (r *Runtime) swarmText() string {
	if !r.swarm.Enabled {
		return ""
	}
	return fmt.Sprintf(" Sub-agents: `await agents.run(prompt, { label?, model?, schema? })` resolves to a child's final text, or with a JSON Schema object "+
		"to its JSON answer, validated; a failed child rejects with a SwarmAgentError. At most %d run at once (more wait) and %d per cell; "+
		"`phase(title)` and `log(message)` report progress.", r.swarm.MaxConcurrent, r.swarm.MaxAgentsPerCell)
}

// maxAgents is how many settlements agents may add to a run's done channel.
func (r *Runtime) maxAgents() int {
	if r.swarm.Enabled {
		return r.swarm.MaxAgentsPerCell
	}
	return 0
}

// newRequest is [Run.newRequest] for the cell's state: agents.run is
// counted against the cell's total (a refusal is thrown at the call) and
// checked here; every other op is the run's.
func (st *state) newRequest(op bridge.Op, name, payload string) (*request, error) {
	if op != bridge.Agent {
		return st.run.newRequest(op, name, payload), nil
	}
	if err := st.swarm.Admit(st.run.rt.swarm); err != nil {
		return nil, err
	}
	req := &request{op: op, name: name}
	req.agent, req.refused = st.swarm.Check(payload, st.run.opts.Scope, st.parent, st.run.rt.agents)
	return req, nil
}

// runAgent runs a child on its worker and records it in the trajectory.
func (run *Run) runAgent(ctx context.Context, st *state, pc *pendingCall) abi.Outcome {
	ac := pc.req.agent
	start := time.Now()
	value, started, err := ac.Run(ctx, run.rt.agents, pc.id)
	if record := st.trajectory(); record != nil && started {
		nc := NestedCall{ID: pc.id, ParentCallID: st.parent, ToolID: pc.method, Method: pc.method, Label: ac.Req.Label,
			Input: ac.Input, Start: start, Duration: time.Since(start)}
		if err != nil {
			nc.Error = err.Error()
		}
		record(nc)
	}
	if err != nil {
		return abi.Reject(err.Error())
	}
	return abi.Resolve(string(value))
}

// note answers phase and log: a bounded note for the trajectory, sent from
// a goroutine of the run's own so that a slow listener never holds up the
// cell. Its ticket, 0, is never settled: the guest does not await it, and
// every note shares the one slot of the bridge's pending table. Without a
// listener a note costs its decoding.
func (st *state) note(op bridge.Op, payload string) (abi.Ticket, error) {
	if !st.run.rt.swarm.Enabled {
		return 0, errors.New(op.String() + " is not available: tools.swarm is off.")
	}
	record := st.trajectory()
	if record == nil || st.swarm.Notes.Sent >= swarm.MaxNotesPerRun {
		return 0, nil
	}
	input, err := swarm.Note(op == bridge.Phase, payload)
	if err != nil {
		return 0, err
	}
	c := NestedCall{ID: st.nextCallID(op.String()), ParentCallID: st.parent, ToolID: op.String(), Method: op.String(), Input: input, Start: time.Now()}
	st.swarm.Notes.Push(func() { record(c) })
	return 0, nil
}

// swarmKeys are the keys of tools.swarm.
func swarmKeys() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, k := range []string{"enabled", "provider"} {
			if !yield(k) {
				return
			}
		}
		for _, f := range swarmIntFields {
			if !yield(f.key) {
				return
			}
		}
	}
}
