package mcp

//lint:file-ignore SA1019 downstream servers of 2025-11-25 and older still send sampling requests and log messages; they are relayed for the deprecation window.

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/tool"
)

// inflight counts a server's calls in flight by the scope that made them, so
// that a request the server makes of its client during a call can be
// relayed to that scope, and only to it; each call's progress token names
// its scope too.
type inflight struct {
	mu     sync.Mutex
	scopes map[tool.Scope]int
	tokens map[string]tool.Scope
	seq    uint64
}

// begin records a call of scope and returns its progress token and the
// function that ends it.
func (f *inflight) begin(scope tool.Scope) (string, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.scopes == nil {
		f.scopes, f.tokens = map[tool.Scope]int{}, map[string]tool.Scope{}
	}
	f.scopes[scope]++
	f.seq++
	token := "codemode-" + strconv.FormatUint(f.seq, 10)
	f.tokens[token] = scope
	return token, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.tokens, token)
		if f.scopes[scope]--; f.scopes[scope] == 0 {
			delete(f.scopes, scope)
		}
	}
}

// byToken is the scope of the call a progress token was given to.
func (f *inflight) byToken(token any) (tool.Scope, bool) {
	t, ok := token.(string)
	if !ok {
		return tool.Scope{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	scope, ok := f.tokens[t]
	return scope, ok
}

// owner is the one scope with calls in flight. A request with none, or with
// several, belongs to no one it could safely be shown to: one person's
// prompt must never reach another.
func (f *inflight) owner(server string) (tool.Scope, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch len(f.scopes) {
	case 1:
		for s := range f.scopes {
			return s, nil
		}
	case 0:
		return tool.Scope{}, fmt.Errorf("MCP server %s asked its client outside any call of a cell", server)
	}
	return tool.Scope{}, fmt.Errorf("MCP server %s asked its client while several runs had calls in flight on it; it cannot be told whose call it belongs to", server)
}

// relayOptions are the client options that relay a server's elicitation
// and sampling requests, with the capabilities that say so.
func (s *server) relayOptions(o *sdk.ClientOptions) {
	r := s.c.relay
	if r == nil {
		return
	}
	o.Capabilities.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}
	o.Capabilities.Sampling = &sdk.SamplingCapabilities{}
	o.ElicitationHandler = func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		scope, err := s.calls.owner(s.name)
		if err != nil {
			return nil, err
		}
		return r.Elicit(ctx, scope, req.Params)
	}
	o.CreateMessageHandler = func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
		scope, err := s.calls.owner(s.name)
		if err != nil {
			return nil, err
		}
		return r.CreateMessage(ctx, scope, req.Params)
	}
	// Progress belongs to the call whose token it names; a log message
	// (logMessage) to the one scope with calls in flight, or to no one.
	o.ProgressNotificationHandler = func(ctx context.Context, req *sdk.ProgressNotificationClientRequest) {
		if scope, ok := s.calls.byToken(req.Params.ProgressToken); ok {
			r.Progress(ctx, scope, s.name, req.Params)
		}
	}
}
