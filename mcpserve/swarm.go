package mcpserve

//lint:file-ignore SA1019 sampling is deprecated by MCP 2026-07-28 (SEP-2577); it stays the swarm's fallback for clients that offer it when no provider is configured.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/provider"
)

// agentMaxTokens bounds one child's answer: a sub-agent reports back to a
// program, it does not write a book.
const agentMaxTokens = 4096

// RunAgent is a [host.Agents] that runs each child of agents.run as one
// sampling/createMessage request on the client of the call's session: the
// prompt as the user message, a system prompt that says it is a sub-agent
// (and, with a schema, to answer with JSON that matches it: the
// [provider.SystemPrompt] a provider's child gets too), the model hint
// as modelPreferences, at most agentMaxTokens. The child's answer is the
// text the client returns. A client without sampling, or a call with no
// session, fails the child with a message that says so.
func (r *Relay) RunAgent(ctx context.Context, req host.AgentRequest) (string, error) {
	ss, _, err := r.session(req.Scope)
	if err != nil {
		return "", err
	}
	if caps := clientCapabilities(ss); caps == nil || caps.Sampling == nil {
		return "", errors.New("the MCP client does not support sampling (sampling/createMessage), so it cannot run sub-agents")
	}
	msgs := []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: req.Prompt}}}
	if req.Retry != nil {
		msgs = append(msgs, &sdk.SamplingMessage{Role: "assistant", Content: &sdk.TextContent{Text: req.Retry.Answer}},
			&sdk.SamplingMessage{Role: "user", Content: &sdk.TextContent{Text: req.Retry.Message}})
	}
	p := &sdk.CreateMessageParams{Messages: msgs, MaxTokens: agentMaxTokens, SystemPrompt: provider.SystemPrompt(req.Label, req.Schema)}
	if req.Model != "" {
		p.ModelPreferences = &sdk.ModelPreferences{Hints: []*sdk.ModelHint{{Name: req.Model}}}
	}
	res, err := ss.CreateMessage(ctx, p)
	if err != nil {
		return "", fmt.Errorf("the MCP client's sampling failed: %w", err)
	}
	text, ok := res.Content.(*sdk.TextContent)
	if !ok {
		return "", fmt.Errorf("the MCP client's model answered with %T content, not text", res.Content)
	}
	return text.Text, nil
}

// trajectory is a call's RunOptions.Trajectory: a swarm's children, phases
// and logs go to every call of the session that asked for progress (they
// outlive the exec that started them, and reach the wait that continues
// it); other nested calls to the call's own progress.
func (s *session) trajectory(p *progress) func(host.NestedCall) {
	return func(c host.NestedCall) {
		var msg string
		switch c.Method {
		case "phase", "log":
			msg = c.Method + ": " + noteText(c)
		case "agents.run":
			name := "sub-agent"
			if c.Label != "" {
				name += " " + c.Label
			}
			msg = fmt.Sprintf("%s finished in %s", name, c.Duration.Round(time.Millisecond))
			if c.Error != "" {
				msg = name + " failed"
			}
		default:
			p.nested(c)
			return
		}
		for _, q := range s.progressing() {
			q.send(msg)
		}
	}
}

func noteText(c host.NestedCall) string {
	var v map[string]string
	if err := json.Unmarshal(c.Input, &v); err != nil {
		return ""
	}
	if c.Method == "phase" {
		return v["title"]
	}
	return v["message"]
}
