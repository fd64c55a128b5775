package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// Trust settings of a server ([ServerConfig] Trust): what happens to a
// tool whose definition differs from its pin, and to a tool never seen.
const (
	// TrustPin (the default, also "") pins a new tool on first sight and
	// quarantines a changed one until a person approves the change.
	TrustPin = "pin"
	// TrustAuto re-pins a changed tool at once, with a warning in the log.
	TrustAuto = "auto"
	// TrustStrict is TrustPin, and also quarantines a new tool of a server
	// that has pinned tools already.
	TrustStrict = "strict"
	// TrustOff publishes the server's tools unchecked and keeps no pins:
	// for a server that is part of the program itself (an in-process one).
	TrustOff = "off"
)

// Pin events, as [Options] OnPin is told of them.
const (
	PinPinned      = "pinned"      // a tool seen for the first time was pinned
	PinQuarantined = "quarantined" // a changed (or, strict, new) tool was held back
	PinRepinned    = "repinned"    // a changed tool was re-pinned: trust "auto"
	PinUnavailable = "unavailable" // the pin store failed; the server's tools were held back
)

// defaultPinRecheck is how often quarantined tools are checked against the
// pin store again, so that an approval takes effect without a reconnect.
const defaultPinRecheck = 5 * time.Second

// QuarantineError is the error of a call to a quarantined tool, and what
// [Client.Quarantined] reports.
type QuarantineError struct {
	ID     string
	Pinned store.Definition // the zero Definition for a new tool (trust "strict")
	Seen   store.Definition
	// Fields name what changed: name, title, description, inputSchema,
	// outputSchema, annotations.
	Fields []string
	// Cause, when set, is why the pin could not be checked at all.
	Cause error
}

func (e *QuarantineError) Error() string {
	approve := " It can be called once a person approves it: codemode tools approve " + e.ID
	switch {
	case e.Cause != nil:
		return fmt.Sprintf("MCP tool %s is withheld: its pin cannot be checked (%v).", e.ID, e.Cause)
	case e.Pinned.Hash == "":
		return fmt.Sprintf("MCP tool %s is quarantined: it is new on a server whose tools are pinned (trust \"strict\"); its definition is %s.%s",
			e.ID, short(e.Seen.Hash), approve)
	}
	return fmt.Sprintf("MCP tool %s is quarantined: its definition changed since it was pinned (%s; hash %s, now %s).%s",
		e.ID, strings.Join(e.Fields, ", "), short(e.Pinned.Hash), short(e.Seen.Hash), approve)
}

func short(h string) string { return h[:min(len(h), 12)] }

// toolID is the catalog id of a server's tool.
func toolID(server, name string) string { return "mcp:" + server + ":" + name }

// definition hashes what a model reads of a tool, each field and the
// whole, as canonical JSON (keys sorted, no space, numbers as written).
func definition(t *sdk.Tool) store.Definition {
	fields := map[string]any{"name": t.Name, "description": t.Description}
	if t.Title != "" {
		fields["title"] = t.Title
	}
	if t.InputSchema != nil {
		fields["inputSchema"] = t.InputSchema
	}
	if t.OutputSchema != nil {
		fields["outputSchema"] = t.OutputSchema
	}
	if t.Annotations != nil {
		fields["annotations"] = t.Annotations
	}
	d := store.Definition{Fields: map[string]string{}}
	whole := map[string]json.RawMessage{}
	for k, v := range fields {
		c := canonical(v)
		whole[k] = c
		d.Fields[k] = sum(c)
	}
	b, _ := json.Marshal(whole) // map keys sorted
	d.Hash = sum(b)
	return d
}

func canonical(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(fmt.Sprintf("%q", fmt.Sprint(v)))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return b
	}
	out, err := json.Marshal(x)
	if err != nil {
		return b
	}
	return out
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// pinState is a server's last listing and what of it is held back.
type pinState struct {
	mu     sync.Mutex // orders vets of this server
	held   map[string]error
	listed []tool.Tool
	defs   []store.Definition
	gen    uint64 // moves with each listing
}

// vet checks a listing against the pins and returns the tools to publish.
// Without a pin store every tool is published.
func (s *server) vet(ctx context.Context, tools []tool.Tool, defs []store.Definition) []tool.Tool {
	if s.c.pins == nil || s.cfg.Trust == TrustOff {
		return tools
	}
	p := &s.pins
	p.mu.Lock()
	defer p.mu.Unlock()
	p.listed, p.defs = tools, defs
	p.gen++
	return s.vetLocked(ctx)
}

func (s *server) vetLocked(ctx context.Context) []tool.Tool {
	p := &s.pins
	held := map[string]error{}
	defer func() {
		s.mu.Lock()
		p.held = held
		s.mu.Unlock()
	}()
	all, err := s.c.pins.List(ctx)
	if err != nil {
		// Fail closed: a tool whose pin cannot be read may be the changed one.
		s.log().Error("MCP tools withheld: the pin store failed", "error", err, "tools", len(p.listed))
		for _, t := range p.listed {
			held[t.Name] = &QuarantineError{ID: toolID(s.name, t.Name), Cause: err}
		}
		s.c.countPin(s.name, PinUnavailable)
		return nil
	}
	pins := map[string]store.Pin{}
	known := false
	for _, pin := range all {
		pins[pin.ID] = pin
		known = known || strings.HasPrefix(pin.ID, toolID(s.name, ""))
	}
	var out []tool.Tool
	var put []store.Pin // written at once: a first listing pins every tool
	defer func() {
		if len(put) > 0 {
			if err := s.c.pins.Put(ctx, put...); err != nil {
				s.log().Error("MCP tool pins not stored", "pins", len(put), "error", err)
			}
		}
	}()
	for i, t := range p.listed {
		id, d := toolID(s.name, t.Name), p.defs[i]
		pin, ok := pins[id]
		switch {
		case !ok && s.cfg.Trust == TrustStrict && known:
			pin = store.Pin{ID: id, Changed: &d}
			put = append(put, pin)
			held[t.Name] = quarantine(pin)
			s.log().Warn("MCP tool quarantined: new on a server whose tools are pinned (trust strict)", "tool", id, "hash", short(d.Hash))
			s.c.countPin(s.name, PinQuarantined)
			continue
		case !ok:
			put = append(put, store.Pin{ID: id, Definition: d})
			s.log().Debug("MCP tool pinned", "tool", id, "hash", short(d.Hash))
			s.c.countPin(s.name, PinPinned)
		case pin.Hash == d.Hash:
			if pin.Changed != nil { // changed back before anyone approved
				pin.Changed = nil
				put = append(put, pin)
			}
		case s.cfg.Trust == TrustAuto:
			s.log().Warn("MCP tool definition changed; re-pinned (trust auto)", "tool", id,
				"changed", pin.ChangedFields(d), "was", short(pin.Hash), "now", short(d.Hash))
			put = append(put, store.Pin{ID: id, Definition: d})
			s.c.countPin(s.name, PinRepinned)
		default:
			if pin.Changed == nil || pin.Changed.Hash != d.Hash {
				pin.Changed = &d
				put = append(put, pin)
				s.log().Warn("MCP tool quarantined: its definition changed since it was pinned", "tool", id,
					"changed", pin.ChangedFields(d), "was", short(pin.Hash), "now", short(d.Hash))
				s.c.countPin(s.name, PinQuarantined)
			}
			held[t.Name] = quarantine(pin)
			continue
		}
		out = append(out, t)
	}
	return out
}

func quarantine(pin store.Pin) *QuarantineError {
	return &QuarantineError{ID: pin.ID, Pinned: pin.Definition, Seen: *pin.Changed, Fields: pin.ChangedFields(*pin.Changed)}
}

// withheld is the error of a call to a held-back tool (from a run prepared
// before it was quarantined), or nil.
func (s *server) withheld(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pins.held[name]
}

// recheck vets again, from the last listing, every server that holds tools
// back, so that an approval (or a pin store that came back) publishes them
// without waiting for a reconnect.
func (c *Client) recheck(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, name := range c.names {
			s := c.servers[name]
			s.mu.Lock()
			n := len(s.pins.held)
			s.mu.Unlock()
			if n > 0 {
				s.revet(ctx)
			}
		}
	}
}

func (s *server) revet(ctx context.Context) {
	p := &s.pins
	p.mu.Lock()
	defer p.mu.Unlock()
	gen := p.gen
	rctx, cancel := context.WithTimeout(ctx, s.c.timeout)
	tools := s.vetLocked(rctx)
	cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.gen != gen || s.session == nil || len(tools) == len(s.tools) {
		return // a newer listing, a server down, or nothing released
	}
	s.tools = tools
	s.c.version.Add(1)
	s.log().Info("MCP tools released from quarantine", "tools", len(tools))
}

// Quarantined returns the [*QuarantineError] of a catalog id
// (mcp:<server>:<tool>) held back from the catalog, or nil. A host that
// cannot find an MCP tool asks it, so that the cell's error names the
// change instead of an unknown tool.
func (c *Client) Quarantined(id string) error {
	rest, ok := strings.CutPrefix(id, "mcp:")
	if !ok {
		return nil
	}
	server, name, ok := strings.Cut(rest, ":")
	s := c.servers[server]
	if !ok || s == nil {
		return nil
	}
	return s.withheld(name)
}

func (c *Client) countPin(server, event string) {
	if c.onPin != nil {
		c.onPin(server, event)
	}
}

func checkTrust(name string, cfg ServerConfig) error {
	switch cfg.Trust {
	case "", TrustPin, TrustAuto, TrustStrict, TrustOff:
		return nil
	}
	return fmt.Errorf("configure MCP server %q: trust must be %q, %q, %q or %q, not %q", name, TrustPin, TrustAuto, TrustStrict, TrustOff, cfg.Trust)
}
