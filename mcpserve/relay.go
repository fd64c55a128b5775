package mcpserve

import (
	"context"
	"errors"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
)

// Relay passes a downstream MCP server's elicitation and sampling requests
// to the client connected to the session whose cell made the call they
// belong to (give it to plugins/mcp's Options.Relay, and to [Options]). A
// client that did not declare the capability, a session that has ended, and
// a server that is not bound yet are clear errors the downstream server
// gets as its answer.
type Relay struct {
	mu sync.Mutex
	s  *service
}

func (r *Relay) bind(s *service) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s = s
}

// session finds the MCP session of a run's scope: scopes name sessions by
// the id the service minted for them.
func (r *Relay) session(scope host.Scope) (*sdk.ServerSession, error) {
	r.mu.Lock()
	s := r.s
	r.mu.Unlock()
	if s == nil {
		return nil, errors.New("code mode is not serving a client yet")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss, sess := range s.sessions {
		if sess.id == scope.SessionID {
			return ss, nil
		}
	}
	return nil, errors.New("the client session of this call has ended")
}

// Elicit asks the session's client to elicit input from its user.
func (r *Relay) Elicit(ctx context.Context, scope host.Scope, params *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	ss, err := r.session(scope)
	if err != nil {
		return nil, err
	}
	if caps := clientCapabilities(ss); caps == nil || caps.Elicitation == nil {
		return nil, errors.New("the client connected to code mode does not support elicitation")
	}
	return ss.Elicit(ctx, params)
}

// CreateMessage asks the session's client to sample its model.
func (r *Relay) CreateMessage(ctx context.Context, scope host.Scope, params *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	ss, err := r.session(scope)
	if err != nil {
		return nil, err
	}
	if caps := clientCapabilities(ss); caps == nil || caps.Sampling == nil {
		return nil, errors.New("the client connected to code mode does not support sampling")
	}
	return ss.CreateMessage(ctx, params)
}

func clientCapabilities(ss *sdk.ServerSession) *sdk.ClientCapabilities {
	if p := ss.InitializeParams(); p != nil {
		return p.Capabilities
	}
	return nil
}
