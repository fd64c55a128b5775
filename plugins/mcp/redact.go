package mcp

import (
	"encoding/json"
	"errors"

	"github.com/seed11a79d2d/codemode/tool"
)

// clean redacts a tool result of a server with Redact set: each content
// block and the structured content, before a cell (or, for a direct-only
// tool, the model) sees them.
func (s *server) clean(r tool.Result) tool.Result {
	x := s.c.redact
	if x == nil || !s.cfg.Redact {
		return r
	}
	for i, c := range r.Content {
		r.Content[i] = x.JSON(c)
	}
	if d, ok := r.Details.(map[string]any); ok {
		d["content"] = r.Content // the same blocks, already redacted
		if sc, ok := d["structuredContent"]; ok {
			d["structuredContent"] = s.cleanAny(sc)
		}
	}
	return r
}

// cleanAny redacts a result of resources/read, prompts/get and the like
// through its JSON; a value that does not encode is left to fail where it
// is encoded next.
func (s *server) cleanAny(v any) any {
	x := s.c.redact
	if x == nil || !s.cfg.Redact || v == nil {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	out := x.JSON(b)
	if string(out) == string(b) {
		return v
	}
	var clean any // a plain JSON value, as a decoded result would be
	if json.Unmarshal(out, &clean) != nil {
		return json.RawMessage(out)
	}
	return clean
}

// cleanErr redacts the message of a failed request: a server's JSON-RPC
// error text reaches the cell as the error's message.
func (s *server) cleanErr(err error) error {
	x := s.c.redact
	if x == nil || !s.cfg.Redact || err == nil {
		return err
	}
	if msg := x.String(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}
