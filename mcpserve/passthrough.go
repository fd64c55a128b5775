package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// The downstream servers' resources, resource templates and prompts are
// offered to the client too, so they do not vanish from its UI: resources
// and templates keep their URIs (with the server in their names; a read of
// a URI no list named goes to each server in turn) and prompts are named
// <server>/<prompt>. Each
// request is the run's MCP operation, so the policy and hooks apply.

// maxRoutes bounds the resource URIs remembered to route reads.
const maxRoutes = 10000

// maxPages bounds the pages read of one server's list.
const maxPages = 100

// passThrough answers resources/list, resources/read,
// resources/templates/list, prompts/list and prompts/get; ok is false for
// every other method.
func (s *service) passThrough(ctx context.Context, method string, req sdk.Request) (res sdk.Result, ok bool, err error) {
	switch method {
	case "resources/list", "resources/read", "resources/templates/list", "prompts/list", "prompts/get":
	default:
		return nil, false, nil
	}
	ss, _ := req.GetSession().(*sdk.ServerSession)
	if ss == nil {
		return nil, true, fmt.Errorf("%s: no session", method)
	}
	var principal string
	if x := req.GetExtra(); x != nil && x.TokenInfo != nil {
		principal = x.TokenInfo.UserID
	}
	sess := s.session(ss, principal)
	run, err := s.rt.Prepare(host.RunOptions{Scope: tool.Scope{AgentID: principal, SessionKey: sess.id, SessionID: sess.id, RunID: sess.id}})
	if err != nil {
		return nil, true, err
	}
	callID := fmt.Sprintf("mcp_call_%d", s.calls.Add(1))
	switch method {
	case "resources/list":
		res, err = s.listResources(ctx, run, callID)
	case "resources/templates/list":
		res, err = s.listTemplates(ctx, run, callID)
	case "resources/read":
		p, _ := req.GetParams().(*sdk.ReadResourceParams)
		if p == nil {
			return nil, true, fmt.Errorf("%s: no params", method)
		}
		res, err = s.readResource(ctx, run, callID, p)
	case "prompts/list":
		res, err = s.listPrompts(ctx, run, callID)
	default:
		p, _ := req.GetParams().(*sdk.GetPromptParams)
		if p == nil {
			return nil, true, fmt.Errorf("%s: no params", method)
		}
		res, err = s.getPrompt(ctx, run, callID, p)
	}
	return res, true, err
}

// request runs one operation and decodes its MCP result into out.
func request(ctx context.Context, run *host.Run, callID, server, method string, params, out any) error {
	p, _ := json.Marshal(params)
	v, err := run.MCPRequest(ctx, callID, server, method, p)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func (s *service) listResources(ctx context.Context, run *host.Run, callID string) (*sdk.ListResourcesResult, error) {
	return &sdk.ListResourcesResult{Resources: collect(ctx, s, run, callID, "resources/list",
		func(p *sdk.ListResourcesResult) ([]*sdk.Resource, string) { return p.Resources, p.NextCursor },
		func(server string, r *sdk.Resource) { s.route(r.URI, server); r.Name = server + "/" + r.Name })}, nil
}

func (s *service) listTemplates(ctx context.Context, run *host.Run, callID string) (*sdk.ListResourceTemplatesResult, error) {
	return &sdk.ListResourceTemplatesResult{ResourceTemplates: collect(ctx, s, run, callID, "resources/templates/list",
		func(p *sdk.ListResourceTemplatesResult) ([]*sdk.ResourceTemplate, string) {
			return p.ResourceTemplates, p.NextCursor
		},
		func(server string, r *sdk.ResourceTemplate) { r.Name = server + "/" + r.Name })}, nil
}

func (s *service) listPrompts(ctx context.Context, run *host.Run, callID string) (*sdk.ListPromptsResult, error) {
	return &sdk.ListPromptsResult{Prompts: collect(ctx, s, run, callID, "prompts/list",
		func(p *sdk.ListPromptsResult) ([]*sdk.Prompt, string) { return p.Prompts, p.NextCursor },
		func(server string, p *sdk.Prompt) { p.Name = server + "/" + p.Name })}, nil
}

// collect is every server's entries of one list: each page read by pages,
// each entry given to qualify (which puts the server in its name) first.
func collect[P, E any](ctx context.Context, s *service, run *host.Run, callID, method string, entries func(*P) ([]E, string), qualify func(server string, e E)) []E {
	out := []E{}
	for _, server := range run.MCPServers() {
		pages(ctx, s, run, callID, server, method, func(page *P) string {
			es, next := entries(page)
			for _, e := range es {
				qualify(server, e)
				out = append(out, e)
			}
			return next
		})
	}
	return out
}

// pages reads every page of one server's list (at most maxPages); visit
// takes each page and returns its next cursor. A failure ends that server's
// list with a warning: the other servers' entries are still worth showing.
func pages[P any](ctx context.Context, s *service, run *host.Run, callID, server, method string, visit func(*P) string) {
	cursor := ""
	for range maxPages {
		var page P
		if err := request(ctx, run, callID, server, method, map[string]any{"cursor": cursor}, &page); err != nil {
			s.logger.Warn(method+" of a downstream server failed", "server", server, "error", err)
			return
		}
		if cursor = visit(&page); cursor == "" {
			return
		}
	}
}

// route remembers which server listed a URI.
func (s *service) route(uri, server string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.routes == nil || len(s.routes) >= maxRoutes {
		s.routes = map[string]string{}
	}
	s.routes[uri] = server
}

// readResource reads from the server that listed the URI, or else from the
// first that has it.
func (s *service) readResource(ctx context.Context, run *host.Run, callID string, p *sdk.ReadResourceParams) (*sdk.ReadResourceResult, error) {
	s.mu.Lock()
	known := s.routes[p.URI]
	s.mu.Unlock()
	servers := run.MCPServers()
	if known != "" {
		servers = append([]string{known}, servers...)
	}
	err := fmt.Errorf("no MCP server has the resource %s", p.URI)
	for _, server := range servers {
		var res sdk.ReadResourceResult
		if e := request(ctx, run, callID, server, "resources/read", p, &res); e != nil {
			err = e
			continue
		}
		return &res, nil
	}
	return nil, err
}

func (s *service) getPrompt(ctx context.Context, run *host.Run, callID string, p *sdk.GetPromptParams) (*sdk.GetPromptResult, error) {
	server, name, ok := strings.Cut(p.Name, "/")
	if !ok {
		return nil, fmt.Errorf("prompt %q: prompts are named <server>/<prompt>", p.Name)
	}
	q := *p
	q.Name = name
	var res sdk.GetPromptResult
	if err := request(ctx, run, callID, server, "prompts/get", &q, &res); err != nil {
		return nil, err
	}
	return &res, nil
}
