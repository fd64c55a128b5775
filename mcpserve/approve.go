package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// Approve is a [host.Hooks] Approve that asks the person at the client of
// the call's session, through elicitation/create: the tool's id and a
// bounded view of its input with secret-looking values hidden, accept or
// decline. It blocks until they answer, so the call stays pending like a
// slow one (exec returns waiting; wait continues). A client without
// elicitation, or a call with no session, gets AllowWithoutElicitation.
func (r *Relay) Approve(ctx context.Context, e host.ToolEvent) (bool, string, error) {
	id := e.ToolID
	if id == "" {
		id = e.ToolName
	}
	ss, _, err := r.session(e.Scope)
	if err == nil {
		if caps := clientCapabilities(ss); caps == nil || caps.Elicitation == nil {
			err = errors.New("the client does not support elicitation")
		}
	}
	if err != nil {
		if r.AllowWithoutElicitation {
			return true, "", nil
		}
		return false, "it needs a person's approval, and " + err.Error(), nil
	}
	res, err := ss.Elicit(ctx, &sdk.ElicitParams{
		Message: fmt.Sprintf("A cell wants to call %s with %s. Allow it?", id, inputView(e.Input)),
		// No fields: the answer is the action, accept or decline.
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	})
	if err != nil {
		return false, "", fmt.Errorf("asking the client: %w", err)
	}
	switch res.Action {
	case "accept":
		return true, "", nil
	case "decline":
		return false, "the person at the client declined", nil
	}
	return false, "the person at the client cancelled the approval", nil
}

// secretKey matches the keys whose values an approval prompt hides.
var secretKey = regexp.MustCompile(`(?i)pass|secret|token|key|auth|cookie|credential|session`)

// Bounds of the input an approval prompt shows.
const (
	viewBytes  = 1024
	viewString = 200
	viewDepth  = 6
)

// inputView is the input as the person sees it: JSON, secrets hidden,
// long strings and deep values cut, at most viewBytes.
func inputView(input json.RawMessage) string {
	var v any
	if json.Unmarshal(input, &v) != nil {
		return "an input that is not JSON"
	}
	b, _ := json.Marshal(hide(v, 0))
	s := string(b)
	if len(s) > viewBytes {
		cut := viewBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func hide(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if depth >= viewDepth {
			return "…"
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if secretKey.MatchString(k) {
				out[k] = "[hidden]"
			} else {
				out[k] = hide(e, depth+1)
			}
		}
		return out
	case []any:
		if depth >= viewDepth {
			return "…"
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = hide(e, depth+1)
		}
		return out
	case string:
		if len(x) > viewString {
			cut := viewString
			for cut > 0 && !utf8.RuneStart(x[cut]) {
				cut--
			}
			return x[:cut] + "…"
		}
	}
	return v
}
