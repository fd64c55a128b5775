// Package swarm is tools.swarm's mechanism: the checks of an agents.run
// request, the children it asks the embedding program's [Agents] for (at
// most Config.MaxConcurrent at once per run), their schema answers, and
// the queue that hands phase and log notes to a run's listener in order.
// The cell owns a [Cell]; the host's facade resolves tools.swarm.
package swarm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/seed11a79d2d/codemode/host/internal/bridge"
	"github.com/seed11a79d2d/codemode/tool"
)

// Config is the resolved tools.swarm: agents.run, phase and log in cells.
// Code mode alone does not turn it on.
type Config struct {
	Enabled bool
	// MaxConcurrent is how many children of one run may be running at
	// once (1..64, default 8); more wait for a slot.
	MaxConcurrent int
	// MaxAgentsPerCell is how many agents.run calls one cell may make
	// across its exec and wait legs (1..256, default 32).
	MaxAgentsPerCell int
}

// Agents runs the sub-agents that cells start with agents.run. RunAgent is
// called on a worker goroutine, at most Config.MaxConcurrent at once
// per run, and returns the child's final text. Its ctx ends when the run
// does (the cell finished, its snapshot expired, the session ended), so it
// must honour ctx. An error fails the child: the cell sees a
// SwarmAgentError with its message.
type Agents interface {
	RunAgent(ctx context.Context, req Request) (string, error)
}

// Func is a function as [Agents].
type Func func(ctx context.Context, req Request) (string, error)

// RunAgent calls f.
func (f Func) RunAgent(ctx context.Context, req Request) (string, error) {
	return f(ctx, req)
}

// Request is one child as the embedding program sees it.
type Request struct {
	Prompt string
	Label  string // options.label, or ""
	Model  string // options.model, a model hint, or ""
	// Schema, when set, is the JSON Schema object the child's answer must
	// match as JSON. It has been checked: no $ref, bounded in size and depth.
	Schema json.RawMessage
	// Retry is set on the one second attempt of a schema answer that did
	// not parse or match.
	Retry *Retry
	Scope tool.Scope
	// CallID is the child's nested call id; ParentCallID the exec's
	// tool-call id.
	CallID, ParentCallID string
}

// Retry is the child's previous answer and the corrective message to
// continue the conversation with.
type Retry struct {
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
	MaxNoteBytes        = 2 << 10
	MaxNotesPerRun      = 1000
	maxNotesQueued      = 64
	msgSwarmOff         = "agents.run is not available: tools.swarm is off."
	MsgNoAgents         = "agents.run has no sub-agents to run: the host has no agent runner (host.Options.Agents)."
	msgSwarmAgentsLimit = "agents.run: this cell has started %d sub-agents, the most tools.swarm.maxAgentsPerCell allows; collect their results, or end the cell and continue in a new one."
)

// Cell is a cell's share of tools.swarm: kept across its legs.
type Cell struct {
	Started int           // agents.run requests so far
	slots   chan struct{} // MaxConcurrent, made on the first request
	Notes   Notes
}

// Admit counts an agents.run request against the cell's total. A refusal
// is thrown at the call (the prelude turns it into a rejection), so a flood
// past the bound leaves nothing pending.
func (c *Cell) Admit(sw Config) error {
	switch {
	case !sw.Enabled:
		return tool.Message(msgSwarmOff)
	case c.Started >= sw.MaxAgentsPerCell:
		return tool.Messagef(msgSwarmAgentsLimit, sw.MaxAgentsPerCell)
	}
	c.Started++
	if c.slots == nil {
		c.slots = make(chan struct{}, sw.MaxConcurrent)
	}
	return nil
}

// Call is a checked agents.run request.
type Call struct {
	Req    Request
	schema *jsonschema.Resolved
	Input  json.RawMessage // for the trajectory
	slots  chan struct{}
}

// Check checks an agents.run payload, or words its refusal: the guest
// checked it too, but the host trusts only itself. agents is the embedding
// program's runner; nil refuses every child.
func (c *Cell) Check(payload string, scope tool.Scope, parent string, agents Agents) (*Call, string) {
	var a struct {
		Prompt *string         `json:"prompt"`
		Label  *string         `json:"label"`
		Model  *string         `json:"model"`
		Schema json.RawMessage `json:"schema"`
	}
	if json.Unmarshal([]byte(payload), &a) != nil || a.Prompt == nil {
		return nil, "agents.run: prompt must be a string."
	}
	ac := &Call{slots: c.slots, Req: Request{Prompt: *a.Prompt, Scope: scope, ParentCallID: parent}}
	if a.Label != nil {
		ac.Req.Label = *a.Label
	}
	if a.Model != nil {
		ac.Req.Model = *a.Model
	}
	switch {
	case strings.TrimSpace(ac.Req.Prompt) == "":
		return nil, "agents.run: prompt must not be empty."
	case len(ac.Req.Prompt) > maxPromptBytes:
		return nil, fmt.Sprintf("agents.run: prompt is %d bytes of UTF-8; at most %d.", len(ac.Req.Prompt), maxPromptBytes)
	case len(ac.Req.Label) > maxHintBytes || len(ac.Req.Model) > maxHintBytes:
		return nil, fmt.Sprintf("agents.run: options.label and options.model are at most %d bytes.", maxHintBytes)
	case agents == nil:
		return nil, MsgNoAgents
	}
	if len(a.Schema) > 0 && string(a.Schema) != "null" {
		s, err := compileSchema(a.Schema)
		if err != nil {
			return nil, "agents.run: options.schema " + err.Error()
		}
		ac.schema, ac.Req.Schema = s, a.Schema
	}
	ac.Input, _ = json.Marshal(struct {
		Prompt string          `json:"prompt"`
		Label  string          `json:"label,omitempty"`
		Model  string          `json:"model,omitempty"`
		Schema json.RawMessage `json:"schema,omitempty"`
	}{ac.Req.Prompt, ac.Req.Label, ac.Req.Model, ac.Req.Schema})
	return ac, ""
}

// Run runs the child of id on its worker: it waits for a slot of the run's
// MaxConcurrent, then asks agents (twice at most for a schema answer). The
// value is the child's as JSON; started is false when the run ended first.
func (ac *Call) Run(ctx context.Context, agents Agents, id string) (value json.RawMessage, started bool, err error) {
	ac.Req.CallID = id
	select {
	case ac.slots <- struct{}{}:
		defer func() { <-ac.slots }()
	case <-ctx.Done():
		return nil, false, errors.New(agentName(ac.Req) + " did not start: the run ended")
	}
	value, err = ask(ctx, agents, ac)
	return value, true, err
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
		return nil, tool.Messagef("is %d bytes of JSON; at most %d.", len(raw), maxSchemaBytes)
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, tool.Message("must be JSON.")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, tool.Message("must be a JSON Schema object.")
	}
	if err := walkSchema(v, 1); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("is not a JSON Schema: %s", bridge.Truncate(err.Error(), maxSchemaProblem))
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("is not a JSON Schema: %s", bridge.Truncate(err.Error(), maxSchemaProblem))
	}
	if err := rs.Validate(nil); err != nil && strings.HasPrefix(err.Error(), "cannot validate version") {
		return nil, fmt.Errorf("has an unsupported $schema: %s", bridge.Truncate(err.Error(), maxSchemaProblem))
	}
	return rs, nil
}

func walkSchema(v any, depth int) error {
	if depth > maxSchemaDepth {
		return tool.Messagef("nests deeper than %d levels.", maxSchemaDepth)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" {
				return tool.Messagef("may not use %s: write the schema out in full.", k)
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

// ask is the child's value as JSON: its text, or with a schema the
// JSON of its answer once it matches. A schema answer that does not parse
// or match is asked for once more, with a message that names the problem.
func ask(ctx context.Context, agents Agents, ac *Call) (json.RawMessage, error) {
	name := agentName(ac.Req)
	text, err := agents.RunAgent(ctx, ac.Req)
	if err == nil && len(text) > maxAnswerBytes {
		err = fmt.Errorf("answered %d bytes; at most %d", len(text), maxAnswerBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed: %s", name, bridge.Truncate(err.Error(), maxAgentErrorBytes))
	}
	if ac.schema == nil {
		return json.Marshal(text) // invalid UTF-8 becomes U+FFFD
	}
	value, problem := schemaAnswer(ac.schema, text)
	if problem == "" {
		return value, nil
	}
	retry := ac.Req
	retry.Retry = &Retry{Answer: text, Message: "Your answer is not valid: " + problem +
		". Answer again with only a JSON value that matches the JSON Schema, and nothing else."}
	text, err = agents.RunAgent(ctx, retry)
	if err == nil && len(text) > maxAnswerBytes {
		err = fmt.Errorf("answered %d bytes; at most %d", len(text), maxAnswerBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s failed when asked again for JSON that matches the schema: %s", name, bridge.Truncate(err.Error(), maxAgentErrorBytes))
	}
	if value, problem = schemaAnswer(ac.schema, text); problem != "" {
		return nil, fmt.Errorf("%s did not answer JSON that matches options.schema, after one retry: %s", name, problem)
	}
	return value, nil
}

func agentName(r Request) string {
	if r.Label == "" {
		return "sub-agent"
	}
	return "sub-agent " + bridge.Quote(bridge.Truncate(r.Label, 80))
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
		return nil, "it does not match the schema: " + bridge.Truncate(strings.TrimPrefix(err.Error(), "validating root: "), maxSchemaProblem)
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

// Notes is a run's queue of phase and log records: at most maxNotesQueued
// wait for the listener (more are dropped) and one goroutine delivers them
// in order. A leg's result waits for its notes (flush), so a listener sees
// them before it: that costs a slow listener's time for at most the
// queue, as a nested call's record costs its call.
type Notes struct {
	Sent    int            // accepted so far; used by the leg's goroutine
	busy    sync.WaitGroup // the delivering goroutine; Add and Wait on the leg's goroutine
	mu      sync.Mutex
	queue   []func()
	running bool
}

// Flush waits until the notes pushed so far are delivered.
func (n *Notes) Flush() { n.busy.Wait() }

// Push queues one note, which deliver hands to the listener.
func (n *Notes) Push(deliver func()) {
	n.Sent++
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.queue) >= maxNotesQueued {
		return
	}
	n.queue = append(n.queue, deliver)
	if !n.running {
		n.running = true
		n.busy.Add(1)
		go n.run()
	}
}

func (n *Notes) run() {
	defer n.busy.Done()
	for {
		n.mu.Lock()
		if len(n.queue) == 0 {
			n.running = false
			n.mu.Unlock()
			return
		}
		deliver := n.queue[0]
		n.queue = n.queue[1:]
		n.mu.Unlock()
		deliver()
	}
}

// Note is the trajectory input of a phase (title) or log (message) note,
// bounded, from its payload.
func Note(phase bool, payload string) (json.RawMessage, error) {
	var a struct {
		Text string `json:"text"`
	}
	if json.Unmarshal([]byte(payload), &a) != nil {
		return nil, errors.New("invalid bridge request")
	}
	key := "message"
	if phase {
		key = "title"
	}
	return json.Marshal(map[string]string{key: bridge.Truncate(a.Text, MaxNoteBytes)})
}
