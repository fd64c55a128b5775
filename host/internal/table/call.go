package table

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/seed11a79d2d/codemode/tool"
)

func blocked(id, reason string) error {
	return tool.Messagef("Tool %q was blocked before execution: %s", id, reason)
}

// Call is the one path of every call of a tool, whoever makes it: the
// before-call hook, approval, the output contract's compile check, the
// tool, the after-call hook and the output contract's validation. ev is the
// call as the hooks see it; a hook's rewritten input is left in it.
func (t *Table) Call(ctx context.Context, def *tool.Tool, ev *tool.Event) (res tool.Result, err error) {
	hooks, id := t.b.spec.Hooks, ev.ToolID
	if id == "" {
		id = ev.ToolName
	}
	if hooks.BeforeToolCall != nil {
		d := hooks.BeforeToolCall(ctx, *ev)
		if d.Block {
			return tool.Result{}, blocked(id, d.Reason)
		}
		if d.Input != nil {
			ev.Input = d.Input
		}
	}
	if t.approval[def] {
		if hooks.Approve == nil {
			return tool.Result{}, blocked(id, "approval required but no approver is configured")
		}
		ok, reason, err := hooks.Approve(ctx, *ev)
		switch {
		case err != nil:
			return tool.Result{}, blocked(id, "approval failed: "+err.Error())
		case !ok:
			if reason == "" {
				reason = "approval denied"
			}
			return tool.Result{}, blocked(id, reason)
		}
	}
	var k *contract
	if def.MCPServer == "" && !t.client[def] && len(def.OutputSchema) > 0 {
		if k = t.b.outputs.get(id, def.OutputSchema); k.err != nil {
			return tool.Result{}, tool.Messagef("Tool %q has an invalid outputSchema.", id)
		}
	}
	res, err = def.Execute(ctx, tool.Call{ID: ev.CallID, ToolID: ev.ToolID, Input: ev.Input, Scope: ev.Scope, ParentCallID: ev.ParentCallID})
	if hooks.AfterToolCall != nil {
		hooks.AfterToolCall(ctx, *ev, res, err)
	}
	if err == nil && k != nil {
		res.Details, err = checkDetails(k, id, res.Details)
	}
	return res, err
}

// contracts compiles trusted output schemas once per Builder.
type contracts struct {
	mu       sync.Mutex
	compiled map[string]*contract // by catalog id and schema text
}

type contract struct {
	resolved *jsonschema.Resolved
	err      error
}

func (c *contracts) get(id string, schema json.RawMessage) *contract {
	key := id + "\x00" + string(schema)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.compiled[key]; ok {
		return k
	}
	if c.compiled == nil {
		c.compiled = map[string]*contract{}
	}
	k := &contract{}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		k.err = err
	} else {
		k.resolved, k.err = s.Resolve(nil)
	}
	c.compiled[key] = k
	return k
}

// checkDetails validates a result's details against the tool's declared
// output schema, and returns them as the JSON it checked, so they are not
// encoded again. The value is never printed: it may be large or private.
func checkDetails(k *contract, id string, details any) (any, error) {
	b, err := json.Marshal(details)
	if err != nil {
		return nil, tool.Messagef("Tool %q returned details that are not JSON-compatible.", id)
	}
	var v any
	json.Unmarshal(b, &v)
	if k.resolved.Validate(v) != nil {
		return nil, tool.Messagef("Tool %q returned details that do not match its declared outputSchema.", id)
	}
	return json.RawMessage(b), nil
}
