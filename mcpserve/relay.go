package mcpserve

//lint:file-ignore SA1019 sampling and logging are deprecated by MCP 2026-07-28 (SEP-2577) but are what clients of the revisions serve speaks use; the relay passes them on for the deprecation window.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/tool"
)

// Relay passes a downstream MCP server's elicitation and sampling requests
// to the client connected to the session whose cell made the call they
// belong to (give it to plugins/mcp's Options.Relay, and to [Options]). A
// client that did not declare the capability, a session that has ended, and
// a server that is not bound yet are clear errors the downstream server
// gets as its answer.
//
// The same session answers [Relay.Approve].
type Relay struct {
	// AllowWithoutElicitation approves calls that need approval when the
	// client cannot be asked; the default denies them.
	AllowWithoutElicitation bool

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
func (r *Relay) session(scope tool.Scope) (*sdk.ServerSession, *session, error) {
	r.mu.Lock()
	s := r.s
	r.mu.Unlock()
	if s == nil {
		return nil, nil, errors.New("code mode is not serving a client yet")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss, sess := range s.sessions {
		if sess.id == scope.SessionID {
			return ss, sess, nil
		}
	}
	return nil, nil, errors.New("the client session of this call has ended")
}

// Elicit asks the session's client to elicit input from its user.
func (r *Relay) Elicit(ctx context.Context, scope tool.Scope, params *sdk.ElicitParams) (*sdk.ElicitResult, error) {
	ss, _, err := r.session(scope)
	if err != nil {
		return nil, err
	}
	if caps := clientCapabilities(ss); caps == nil || caps.Elicitation == nil {
		return nil, errors.New("the client connected to code mode does not support elicitation")
	}
	return ss.Elicit(ctx, params)
}

// CreateMessage asks the session's client to sample its model.
func (r *Relay) CreateMessage(ctx context.Context, scope tool.Scope, params *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	ss, _, err := r.session(scope)
	if err != nil {
		return nil, err
	}
	if caps := clientCapabilities(ss); caps == nil || caps.Sampling == nil {
		return nil, errors.New("the client connected to code mode does not support sampling")
	}
	return ss.CreateMessage(ctx, params)
}

func clientCapabilities(ss *sdk.ServerSession) *sdk.ClientCapabilities {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return nil
	}
	caps := *p.Capabilities
	// A session agreed on a revision before elicitation existed is never
	// asked, whatever the client declared: its client cannot know the
	// method. Serve agrees on the client's revision when it offers it and
	// on its newest otherwise.
	if v := p.ProtocolVersion; slices.Contains(protocolVersions, v) && v < "2025-06-18" {
		caps.Elicitation = nil
	}
	return &caps
}

// Progress passes a downstream call's progress on as progress of the
// session's exec and wait calls that asked for progress, named by server.
func (r *Relay) Progress(_ context.Context, scope tool.Scope, server string, params *sdk.ProgressNotificationParams) {
	_, sess, err := r.session(scope)
	if err != nil {
		return
	}
	msg := params.Message
	if msg == "" {
		msg = fmt.Sprintf("%g", params.Progress)
		if params.Total > 0 {
			msg += fmt.Sprintf(" of %g", params.Total)
		}
	}
	for _, p := range sess.progressing() {
		p.send(server + ": " + msg)
	}
}

// Log passes a downstream log message on to the session's client, its
// logger named by server; the client's logging level applies.
func (r *Relay) Log(ctx context.Context, scope tool.Scope, server string, params *sdk.LoggingMessageParams) {
	ss, _, err := r.session(scope)
	if err != nil {
		return
	}
	logger := server
	if params.Logger != "" {
		logger += "/" + params.Logger
	}
	ss.Log(ctx, &sdk.LoggingMessageParams{Level: params.Level, Logger: logger, Data: params.Data})
}
