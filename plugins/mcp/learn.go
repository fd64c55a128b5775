package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/shape"
	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/tool"
)

// Most MCP tools declare no output schema, so a model cannot know the
// fields of what they return before its first call. A server's learner
// records the shape of each such tool's results (never a value: see package
// shape) and publishes it on the tool as tool.Observed, which the
// declaration files show. Shapes are keyed by the tool's catalog id and a
// hash of its input schema, so a changed tool starts over, and kept in a
// store.Shapes so a restart or another replica starts from them.

// maxLearnBytes bounds the results learned from: a bigger one is passed
// on untouched, its shape unlearned (parsing it would cost more than the
// hint is worth).
const maxLearnBytes = 1 << 20

// learned is what persists of one tool: which part of its results the
// shape describes, and the shape.
type learned struct {
	Of    string       `json:"of"`
	Shape *shape.Shape `json:"shape"`
}

type learner struct {
	server string
	store  store.Shapes // nil: learning is off

	mu    sync.Mutex
	tools map[string]*learned // by key
}

// key names a tool's shapes: its catalog id and its input schema's hash.
func (l *learner) key(name string, input json.RawMessage) string {
	sum := sha256.Sum256(input)
	return "mcp:" + l.server + ":" + name + "@" + hex.EncodeToString(sum[:8])
}

// load reads the server's shapes from the store when it connects; what
// this process learned since is kept where the store has nothing.
func (l *learner) load(ctx context.Context) {
	if l == nil || l.store == nil {
		return
	}
	all, err := l.store.LoadShapes(ctx, l.server)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range all {
		var x learned
		if json.Unmarshal(b, &x) != nil || x.Shape == nil || !validOf(x.Of) {
			continue
		}
		if l.tools[k] == nil && len(l.tools) < store.MaxShapesPerGroup {
			l.tools[k] = &x
		}
	}
}

func validOf(of string) bool { return of == ofStructured || of == ofText }

const (
	ofStructured = "structuredContent"
	ofText       = "JSON.parse(content[0].text)"
)

// observed is what to publish of a tool; nil before its first result.
func (l *learner) observed(key string) *tool.Observed {
	if l == nil || l.store == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.publishable(l.tools[key])
}

func (l *learner) publishable(x *learned) *tool.Observed {
	if x == nil || x.Shape == nil {
		return nil
	}
	return &tool.Observed{Of: x.Of, Type: x.Shape.TS(), Calls: shownCalls(x.Shape.Seen)}
}

// shownCalls rounds a call count down to 1, 2, 3, 5, 10, 20, 50, 100,
// 200, 500, ... so that the published shape, and with it the catalog,
// changes only when the type does or the count passes one of these.
func shownCalls(n int) int {
	if n <= 3 {
		return n
	}
	shown := 3
	for step := 1; ; step *= 10 {
		for _, m := range []int{5, 10, 20} {
			if m*step > n {
				return shown
			}
			shown = m * step
		}
	}
}

// observe learns from one result of a tool and reports the tool's new
// publication when it changed.
func (l *learner) observe(key string, res *sdk.CallToolResult) (*tool.Observed, bool) {
	if l == nil || l.store == nil || res == nil || res.IsError {
		return nil, false
	}
	of, raw := payload(res)
	if raw == nil {
		return nil, false
	}
	seen := shape.Of(raw)
	if seen == nil {
		return nil, false
	}
	l.mu.Lock()
	x := l.tools[key]
	before := l.publishable(x)
	switch {
	case x == nil && len(l.tools) >= store.MaxShapesPerGroup:
		l.mu.Unlock()
		return nil, false
	case x == nil || x.Of != of:
		x = &learned{Of: of, Shape: seen}
		l.tools[key] = x
	default:
		x.Shape.Merge(seen)
	}
	after := l.publishable(x)
	changed := before == nil || *before != *after
	var body []byte
	if changed {
		body, _ = json.Marshal(x)
	}
	l.mu.Unlock()
	if !changed {
		return nil, false
	}
	if len(body) <= store.MaxShapeBytes {
		// Off the call's path: a slow store must not slow the tool.
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			l.store.SaveShape(ctx, l.server, key, body)
		}()
	}
	return after, true
}

// payload is the part of a result a shape describes: its structured
// content, or the JSON object or array its one text item holds.
func payload(res *sdk.CallToolResult) (of string, raw []byte) {
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil || len(b) > maxLearnBytes {
			return "", nil
		}
		return ofStructured, b
	}
	if len(res.Content) != 1 {
		return "", nil
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok || len(tc.Text) > maxLearnBytes {
		return "", nil
	}
	text := strings.TrimSpace(tc.Text)
	if text == "" || text[0] != '{' && text[0] != '[' || !json.Valid([]byte(text)) {
		return "", nil
	}
	return ofText, []byte(text)
}

// setObserved publishes a tool's new learned shape: the tool list changes,
// so the catalog is built again with it.
func (s *server) setObserved(name string, o *tool.Observed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.tools {
		if s.tools[i].Name == name {
			s.tools = slices.Clone(s.tools)
			s.tools[i].Observed = o
			s.c.version.Add(1)
			return
		}
	}
}
