package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strings"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/provider"
)

// demoSwarm is tools.swarm when no --config is given: the demo setup shows
// everything, sub-agents included.
var demoSwarm = json.RawMessage(`true`)

// agents is who runs the children of agents.run: tools.swarm.provider when
// the config sets one; else under serve the MCP client's model (sampling,
// through the relay); under exec with the demo plugin the demo agent, so
// examples run offline; otherwise no one, which fails the child with a
// message that says how to get one.
func (e *env) agents(useDemo bool) host.Agents {
	switch {
	case e.provider != nil:
		return providerAgents(e.provider)
	case e.relay != nil:
		return e.relay
	case useDemo:
		return host.AgentFunc(demoAgent)
	}
	return host.AgentFunc(func(context.Context, host.AgentRequest) (string, error) {
		return "", errors.New("codemode exec runs sub-agents with tools.swarm.provider or the demo plugin (plugins.demo); under codemode serve the MCP client's model can run them")
	})
}

// providerAgents runs each child through c: the prompt, and on a schema's
// retry the first answer and the correction, as the conversation; the
// budgets keyed by the call's session and its cell (the exec's call id,
// which its wait legs keep).
func providerAgents(c *provider.Client) host.Agents {
	return host.AgentFunc(func(ctx context.Context, req host.AgentRequest) (string, error) {
		msgs := []provider.Message{{Role: "user", Text: req.Prompt}}
		if req.Retry != nil {
			msgs = append(msgs, provider.Message{Role: "assistant", Text: req.Retry.Answer}, provider.Message{Role: "user", Text: req.Retry.Message})
		}
		session := req.Scope.AgentID + "\x00" + req.Scope.SessionKey
		return c.Run(ctx, provider.Request{System: provider.SystemPrompt(req.Label, req.Schema), Messages: msgs,
			Label: req.Label, Model: req.Model, Session: session, Cell: session + "\x00" + req.ParentCallID})
	})
}

// newProvider starts the client of tools.swarm.provider, or nil. Its key
// is read now, before any MCP server starts: a keyEnv variable is then
// removed from this process's environment, so that no server (inheritEnv
// or not), nor anything else started later, inherits it; and serve's log
// redactor learns it.
func newProvider(cfg *provider.Config, logger *slog.Logger, so *serveSettings) (*provider.Client, string, error) {
	if cfg == nil {
		return nil, "", nil
	}
	key, err := cfg.ReadKey(func(name string) (string, bool) {
		v, ok := os.LookupEnv(name)
		os.Unsetenv(name)
		return v, ok
	})
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", errConfig, err)
	}
	so.secret(key)
	c, err := provider.New(cfg, key, logger)
	if err != nil {
		return nil, "", fmt.Errorf("%w: tools.swarm.provider: %w", errConfig, err)
	}
	return c, key, nil
}

// demoAgent answers at once and always the same way: "<label>: <prompt>"
// (the first line of the prompt, at most 120 characters), or for a schema
// the least instance of it that demoValue can build.
func demoAgent(_ context.Context, req host.AgentRequest) (string, error) {
	if len(req.Schema) > 0 {
		var s any
		if err := json.Unmarshal(req.Schema, &s); err != nil {
			return "", err
		}
		b, err := json.Marshal(demoValue(s, 0))
		return string(b), err
	}
	label := req.Label
	if label == "" {
		label = "demo agent"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(req.Prompt), "\n")
	if r := []rune(line); len(r) > 120 {
		line = string(r[:120]) + "…"
	}
	return label + ": " + line, nil
}

// demoValue builds a small instance of a schema: const, the first enum
// value or the default when there is one, else by type the required
// properties, minItems items (at most 3), a string of minLength (at most
// 64), a number within its bounds. It is no solver: a schema it cannot
// satisfy gets an answer the host then refuses, as a real model's would be.
func demoValue(schema any, depth int) any {
	s, ok := schema.(map[string]any)
	if !ok || depth > 32 {
		return nil
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if v, ok := s["default"]; ok {
		return v
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			return demoValue(alts[0], depth+1)
		}
	}
	typ, _ := s["type"].(string)
	if types, ok := s["type"].([]any); ok && len(types) > 0 {
		typ, _ = types[0].(string)
	}
	switch {
	case typ == "object" || typ == "" && s["properties"] != nil:
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		required, _ := s["required"].([]any)
		for _, r := range required {
			if k, ok := r.(string); ok {
				out[k] = demoValue(props[k], depth+1)
				if props[k] == nil {
					out[k] = "demo"
				}
			}
		}
		return out
	case typ == "array" || typ == "" && s["items"] != nil:
		n := int(math.Min(math.Max(number(s, "minItems", 0), 0), 3)) // clamped as a float: a huge one overflows int
		out := make([]any, 0, n)
		for range n {
			out = append(out, demoValue(s["items"], depth+1))
		}
		return out
	case typ == "string":
		v := "demo"
		for n := int(math.Min(math.Max(number(s, "minLength", 0), 0), 64)); len(v) < n; {
			v += "o"
		}
		return v
	case typ == "integer", typ == "number":
		v := 0.0
		if lo := number(s, "minimum", math.Inf(-1)); v < lo {
			v = lo
		}
		if lo := number(s, "exclusiveMinimum", math.Inf(-1)); v <= lo {
			v = lo + 1
		}
		if hi := number(s, "maximum", math.Inf(1)); v > hi {
			v = hi
		}
		if typ == "integer" {
			v = math.Ceil(v)
		}
		return v
	case typ == "boolean":
		return false
	case typ == "null":
		return nil
	}
	return "demo"
}

func number(s map[string]any, key string, def float64) float64 {
	if f, ok := s[key].(float64); ok && !math.IsInf(f, 0) {
		return f
	}
	return def
}
