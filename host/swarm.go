package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/tool"
)

// SwarmConfig is the resolved tools.swarm: agents.run, phase and log in
// cells. Code mode alone does not turn it on.
type SwarmConfig struct {
	Enabled bool
	// MaxConcurrent is how many children of one run may be running at
	// once (1..64, default 8); more wait for a slot.
	MaxConcurrent int
	// MaxAgentsPerCell is how many agents.run calls one cell may make
	// across its exec and wait legs (1..256, default 32).
	MaxAgentsPerCell int
}

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
			warnings = append(warnings, field+": unknown key ignored")
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

// normalized clamps a SwarmConfig built in Go by ResolveSwarm's rules.
func (c SwarmConfig) normalized() SwarmConfig {
	c.MaxConcurrent = swarmIntFields[0].clamp(int64(c.MaxConcurrent))
	c.MaxAgentsPerCell = swarmIntFields[1].clamp(int64(c.MaxAgentsPerCell))
	return c
}

// Agents runs the sub-agents that cells start with agents.run. RunAgent is
// called on a worker goroutine, at most SwarmConfig.MaxConcurrent at once
// per run, and returns the child's final text. Its ctx ends when the run
// does (the cell finished, its snapshot expired, the session ended), so it
// must honour ctx. An error fails the child: the cell sees a
// SwarmAgentError with its message.
type Agents interface {
	RunAgent(ctx context.Context, req AgentRequest) (string, error)
}

// AgentFunc is a function as [Agents].
type AgentFunc func(ctx context.Context, req AgentRequest) (string, error)

// RunAgent calls f.
func (f AgentFunc) RunAgent(ctx context.Context, req AgentRequest) (string, error) {
	return f(ctx, req)
}

// AgentRequest is one child as the embedding program sees it.
type AgentRequest struct {
	Prompt string
	Label  string // options.label, or ""
	Model  string // options.model, a model hint, or ""
	// Schema, when set, is the JSON Schema object the child's answer must
	// match as JSON. It has been checked: no $ref, bounded in size and depth.
	Schema json.RawMessage
	// Retry is set on the one second attempt of a schema answer that did
	// not parse or match.
	Retry *AgentRetry
	Scope tool.Scope
	// CallID is the child's nested call id; ParentCallID the exec's
	// tool-call id.
	CallID, ParentCallID string
}

// AgentRetry is the child's previous answer and the corrective message to
// continue the conversation with.
type AgentRetry struct {
	Answer, Message string
}

// Bounds of one agents.run request, checked by the host whatever the guest
// sent, and of the notes phase and log make.
const (
	maxPromptBytes      = 64 << 10
	maxHintBytes        = 256 // label and model
	maxSchemaBytes      = 16 << 10
	maxSchemaDepth      = 32
	maxAnswerBytes      = 256 << 10
	maxAgentErrorBytes  = 1 << 10
	maxSchemaProblem    = 300
	maxNoteBytes        = 2 << 10
	maxNotesPerRun      = 1000
	maxNotesQueued      = 64
	msgSwarmOff         = "agents.run is not available: tools.swarm is off."
	msgSwarmNoAgents    = "agents.run has no sub-agents to run: the host has no agent runner (host.Options.Agents)."
	msgSwarmAgentsLimit = "agents.run: this cell has started %d sub-agents, the most tools.swarm.maxAgentsPerCell allows; collect their results, or end the cell and continue in a new one."
)

// swarmState is a run's share of tools.swarm: kept across its legs.
type swarmState struct {
	started int           // agents.run requests so far
	slots   chan struct{} // MaxConcurrent, made on the first request
	notes   notes
}

// agentCall is a checked agents.run request.
type agentCall struct {
	req    AgentRequest
	schema *jsonschema.Resolved
	input  json.RawMessage // for the trajectory
	slots  chan struct{}
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

// admitAgent counts an agents.run request against the cell's total. A
// refusal is thrown at the call (the prelude turns it into a rejection), so
// a flood past the bound leaves nothing pending.
func (st *state) admitAgent() error {
	sw := st.run.rt.swarm
	switch {
	case !sw.Enabled:
		return errors.New(msgSwarmOff)
	case st.swarm.started >= sw.MaxAgentsPerCell:
		return fmt.Errorf(msgSwarmAgentsLimit, sw.MaxAgentsPerCell)
	}
	st.swarm.started++
	if st.swarm.slots == nil {
		st.swarm.slots = make(chan struct{}, sw.MaxConcurrent)
	}
	return nil
}

// newRequest is [Run.newRequest] for the cell's state: agents.run is
// counted against the cell's total (a refusal is thrown at the call) and
// checked here; every other op is the run's.
func (st *state) newRequest(op bridge.Op, name, payload string) (*request, error) {
	if op != bridge.Agent {
		return st.run.newRequest(op, name, payload), nil
	}
	if err := st.admitAgent(); err != nil {
		return nil, err
	}
	req := &request{op: op, name: name}
	st.resolveAgent(req, payload)
	return req, nil
}

// resolveAgent checks an agents.run payload: the guest checked it too, but
// the host trusts only itself.
func (st *state) resolveAgent(req *request, payload string) {
	var a struct {
		Prompt *string         `json:"prompt"`
		Label  *string         `json:"label"`
		Model  *string         `json:"model"`
		Schema json.RawMessage `json:"schema"`
	}
	if json.Unmarshal([]byte(payload), &a) != nil || a.Prompt == nil {
		req.refused = "agents.run: prompt must be a string."
		return
	}
	run := st.run
	ac := &agentCall{slots: st.swarm.slots, req: AgentRequest{Prompt: *a.Prompt, Scope: run.opts.Scope, ParentCallID: st.parent}}
	if a.Label != nil {
		ac.req.Label = *a.Label
	}
	if a.Model != nil {
		ac.req.Model = *a.Model
	}
	switch {
	case strings.TrimSpace(ac.req.Prompt) == "":
		req.refused = "agents.run: prompt must not be empty."
	case len(ac.req.Prompt) > maxPromptBytes:
		req.refused = fmt.Sprintf("agents.run: prompt is %d bytes of UTF-8; at most %d.", len(ac.req.Prompt), maxPromptBytes)
	case len(ac.req.Label) > maxHintBytes || len(ac.req.Model) > maxHintBytes:
		req.refused = fmt.Sprintf("agents.run: options.label and options.model are at most %d bytes.", maxHintBytes)
	case run.rt.agents == nil:
		req.refused = msgSwarmNoAgents
	}
	if req.refused != "" {
		return
	}
	if len(a.Schema) > 0 && string(a.Schema) != "null" {
		s, err := compileSchema(a.Schema)
		if err != nil {
			req.refused = "agents.run: options.schema " + err.Error()
			return
		}
		ac.schema, ac.req.Schema = s, a.Schema
	}
	ac.input, _ = json.Marshal(struct {
		Prompt string          `json:"prompt"`
		Label  string          `json:"label,omitempty"`
		Model  string          `json:"model,omitempty"`
		Schema json.RawMessage `json:"schema,omitempty"`
	}{ac.req.Prompt, ac.req.Label, ac.req.Model, ac.req.Schema})
	req.agent = ac
}

// compileSchema checks a cell's schema before it is used: an object, at
// most maxSchemaBytes and maxSchemaDepth, and without references. A
// reference can make the validator loop forever ({"$ref": "#"}) or take
// exponential time, so it is refused rather than bounded. The output
// contracts' cache is not used: a cell may send endless distinct schemas.
func compileSchema(raw json.RawMessage) (_ *jsonschema.Resolved, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot be compiled: %v", r)
		}
	}()
	if len(raw) > maxSchemaBytes {
		return nil, fmt.Errorf("is %d bytes of JSON; at most %d.", len(raw), maxSchemaBytes)
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, errors.New("must be JSON.")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("must be a JSON Schema object.")
	}
	if err := walkSchema(v, 1); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("is not a JSON Schema: %s", truncateUTF8(err.Error(), maxSchemaProblem))
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("is not a JSON Schema: %s", truncateUTF8(err.Error(), maxSchemaProblem))
	}
	if err := rs.Validate(nil); err != nil && strings.HasPrefix(err.Error(), "cannot validate version") {
		return nil, fmt.Errorf("has an unsupported $schema: %s", truncateUTF8(err.Error(), maxSchemaProblem))
	}
	return rs, nil
}

func walkSchema(v any, depth int) error {
	if depth > maxSchemaDepth {
		return fmt.Errorf("nests deeper than %d levels.", maxSchemaDepth)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" {
				return fmt.Errorf("may not use %s: write the schema out in full.", k)
			}
			if err := walkSchema(e, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := walkSchema(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// runAgent runs a child on its worker: it waits for a slot of the run's
// MaxConcurrent, asks the embedding program's agent (twice at most for a
// schema answer) and records the child in the trajectory.
func (run *Run) runAgent(ctx context.Context, st *state, pc *pendingCall) abi.Outcome {
	ac := pc.req.agent
	ac.req.CallID = pc.id
	select {
	case ac.slots <- struct{}{}:
		defer func() { <-ac.slots }()
	case <-ctx.Done():
		return abi.Reject(agentName(ac.req) + " did not start: the run ended")
	}
	start := time.Now()
	value, err := run.askAgent(ctx, ac)
	if record := st.trajectory(); record != nil {
		nc := NestedCall{ID: pc.id, ParentCallID: st.parent, ToolID: pc.method, Method: pc.method, Label: ac.req.Label,
			Input: ac.input, Start: start, Duration: time.Since(start)}
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

// askAgent is the child's value as JSON: its text, or with a schema the
// JSON of its answer once it matches. A schema answer that does not parse
// or match is asked for once more, with a message that names the problem.
func (run *Run) askAgent(ctx context.Context, ac *agentCall) (json.RawMessage, error) {
	name := agentName(ac.req)
	text, err := run.rt.agents.RunAgent(ctx, ac.req)
	if err == nil && len(text) > maxAnswerBytes {
		err = fmt.Errorf("answered %d bytes; at most %d", len(text), maxAnswerBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed: %s", name, truncateUTF8(err.Error(), maxAgentErrorBytes))
	}
	if ac.schema == nil {
		return json.Marshal(text) // invalid UTF-8 becomes U+FFFD
	}
	value, problem := schemaAnswer(ac.schema, text)
	if problem == "" {
		return value, nil
	}
	retry := ac.req
	retry.Retry = &AgentRetry{Answer: text, Message: "Your answer is not valid: " + problem +
		". Answer again with only a JSON value that matches the JSON Schema, and nothing else."}
	text, err = run.rt.agents.RunAgent(ctx, retry)
	if err == nil && len(text) > maxAnswerBytes {
		err = fmt.Errorf("answered %d bytes; at most %d", len(text), maxAnswerBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed when asked again for JSON that matches the schema: %s", name, truncateUTF8(err.Error(), maxAgentErrorBytes))
	}
	if value, problem = schemaAnswer(ac.schema, text); problem != "" {
		return nil, fmt.Errorf("%s did not answer JSON that matches options.schema, after one retry: %s", name, problem)
	}
	return value, nil
}

func agentName(r AgentRequest) string {
	if r.Label == "" {
		return "sub-agent"
	}
	return "sub-agent " + jsString(truncateUTF8(r.Label, 80))
}

// schemaAnswer parses a child's answer as JSON and validates it; problem
// says what is wrong, bounded. Models wrap JSON in a markdown fence or a
// sentence, so the fence's content, or the text from the first { or [ to
// the last } or ], is tried after the whole answer.
func schemaAnswer(rs *jsonschema.Resolved, text string) (json.RawMessage, string) {
	var v any
	ok := false
	for _, c := range answerCandidates(text) {
		if json.Unmarshal([]byte(c), &v) == nil {
			ok = true
			break
		}
	}
	if !ok {
		return nil, "it is not JSON"
	}
	if err := validateAnswer(rs, v); err != nil {
		return nil, "it does not match the schema: " + truncateUTF8(strings.TrimPrefix(err.Error(), "validating root: "), maxSchemaProblem)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, "it is not JSON"
	}
	return b, ""
}

func validateAnswer(rs *jsonschema.Resolved, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema could not be checked: %v", r)
		}
	}()
	return rs.Validate(v)
}

func answerCandidates(text string) []string {
	t := strings.TrimSpace(text)
	out := []string{t}
	if strings.HasPrefix(t, "```") {
		if _, body, ok := strings.Cut(t, "\n"); ok {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(body), "```"))
		}
	}
	if i := strings.IndexAny(t, "{["); i >= 0 {
		if j := strings.LastIndexAny(t, "}]"); j > i {
			out = append(out, t[i:j+1])
		}
	}
	return out
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
	if record == nil || st.swarm.notes.sent >= maxNotesPerRun {
		return 0, nil
	}
	var a struct {
		Text string `json:"text"`
	}
	if json.Unmarshal([]byte(payload), &a) != nil {
		return 0, errors.New("invalid bridge request")
	}
	key := "message"
	if op == bridge.Phase {
		key = "title"
	}
	input, _ := json.Marshal(map[string]string{key: truncateUTF8(a.Text, maxNoteBytes)})
	st.swarm.notes.push(record, NestedCall{ID: st.nextCallID(op.String()),
		ParentCallID: st.parent, ToolID: op.String(), Method: op.String(), Input: input, Start: time.Now()})
	return 0, nil
}

// notes is a run's queue of phase and log records: at most maxNotesQueued
// wait for the listener (more are dropped) and one goroutine delivers them
// in order. A leg's result waits for its notes (flush), so a listener sees
// them before it: that costs a slow listener's time for at most the
// queue, as a nested call's record costs its call.
type notes struct {
	sent    int            // accepted so far; used by the leg's goroutine
	busy    sync.WaitGroup // the delivering goroutine; Add and Wait on the leg's goroutine
	mu      sync.Mutex
	queue   []NestedCall
	running bool
}

func (n *notes) flush() { n.busy.Wait() }

func (n *notes) push(record func(NestedCall), c NestedCall) {
	n.sent++
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) >= maxNotesQueued {
		return
	}
	n.queue = append(n.queue, c)
	if !n.running {
		n.running = true
		n.busy.Add(1)
		go n.deliver(record)
	}
}

func (n *notes) deliver(record func(NestedCall)) {
	defer n.busy.Done()
	for {
		n.mu.Lock()
		if len(n.queue) == 0 {
			n.running = false
			n.mu.Unlock()
			return
		}
		c := n.queue[0]
		n.queue = n.queue[1:]
		n.mu.Unlock()
		record(c)
	}
}
