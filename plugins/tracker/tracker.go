// Package tracker is an example plugin: an in-memory issue tracker that uses
// every plugin feature of code mode. Its tools declare closed output schemas,
// issues_list and issues_get are replay-safe, issues_update needs approval,
// and the Issues namespace gives cells a concise API over them:
//
//	const open = await Issues.list({ state: "open" });
//	await Issues.update(open[0].id, { state: "closed" });
package tracker

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/seed11a79d2d/codemode/tool"
)

// PluginID is the plugin id: catalog ids are openclaw:tracker:<tool>.
const PluginID = "tracker"

// Issue is one tracked issue.
type Issue struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	State string `json:"state"` // "open" or "closed"
}

// Tracker holds the issues. It is safe for concurrent use.
type Tracker struct {
	mu     sync.Mutex
	issues []Issue
}

// New returns a tracker holding issues.
func New(issues ...Issue) *Tracker { return &Tracker{issues: slices.Clone(issues)} }

// Register adds the tracker's namespace to rt, a *host.Runtime (named by
// its method, so that the plugin does not link the host). The runtime must
// have been built with the tracker's tools (as a [tool.Source] or in
// host.Options.Tools).
func (t *Tracker) Register(rt interface {
	RegisterNamespace(pluginID string, ns tool.Namespace) error
}) error {
	return rt.RegisterNamespace(PluginID, t.Namespace())
}

const issueSchema = `{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"state":{"type":"string","enum":["open","closed"]}},"required":["id","title","state"],"additionalProperties":false}`

// Version implements [tool.Source]: the tracker's tools never change.
func (t *Tracker) Version() uint64 { return 0 }

// Tools implements [tool.Source].
func (t *Tracker) Tools() []tool.Tool {
	return []tool.Tool{
		{
			Name: "issues_list", Plugin: PluginID, ReplaySafe: true,
			Description:  "List issues, optionally only those in one state.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"state":{"type":"string","enum":["open","closed"]}},"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"array","items":` + issueSchema + `}`),
			Execute:      t.list,
		},
		{
			Name: "issues_get", Plugin: PluginID, ReplaySafe: true,
			Description:  "Get one issue by id.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(issueSchema),
			Execute:      t.get,
		},
		{
			Name: "issues_update", Plugin: PluginID, RequireApproval: true,
			Description:  "Change an issue's title or state. Requires approval.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"state":{"type":"string","enum":["open","closed"]}},"required":["id"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(issueSchema),
			Execute:      t.update,
		},
	}
}

// Namespace is the Issues namespace over the tracker's tools.
func (t *Tracker) Namespace() tool.Namespace {
	return tool.Namespace{
		ID: "tracker.issues", GlobalName: "Issues",
		Description:       "An in-memory issue tracker: Issues.list({ state? }), Issues.get(id), Issues.update(id, { title?, state? }).",
		Prompt:            "Issues.update needs a person's approval, so it may return waiting; call wait to continue.",
		RequiredToolNames: []string{"issues_list", "issues_get", "issues_update"},
		CreateScope: func(ctx context.Context, nc tool.NamespaceContext) (any, error) {
			return map[string]any{
				"list": tool.NamespaceTool("issues_list", nil),
				"get":  tool.NamespaceTool("issues_get", idArg),
				"update": tool.NamespaceTool("issues_update", func(args []json.RawMessage) (json.RawMessage, error) {
					if len(args) != 2 {
						return nil, tool.Message("Issues.update takes (id, { title?, state? })")
					}
					var patch map[string]json.RawMessage
					if json.Unmarshal(args[1], &patch) != nil || patch == nil {
						return nil, tool.Message("Issues.update: the second argument must be an object")
					}
					patch["id"] = args[0]
					return json.Marshal(patch)
				}),
				"states": []any{"open", "closed"},
			}, nil
		},
	}
}

func idArg(args []json.RawMessage) (json.RawMessage, error) {
	if len(args) != 1 {
		return nil, tool.Message("Issues.get takes one id")
	}
	return json.Marshal(map[string]json.RawMessage{"id": args[0]})
}

func (t *Tracker) list(_ context.Context, c tool.Call) (tool.Result, error) {
	var in struct{ State string }
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return tool.Result{}, fmt.Errorf("issues_list: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []Issue{}
	for _, i := range t.issues {
		if in.State == "" || i.State == in.State {
			out = append(out, i)
		}
	}
	return tool.Result{Details: out}, nil
}

func (t *Tracker) find(id string) (int, error) {
	for k, i := range t.issues {
		if i.ID == id {
			return k, nil
		}
	}
	return 0, fmt.Errorf("no issue %q", id)
}

func (t *Tracker) get(_ context.Context, c tool.Call) (tool.Result, error) {
	var in struct{ ID string }
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return tool.Result{}, fmt.Errorf("issues_get: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k, err := t.find(in.ID)
	if err != nil {
		return tool.Result{}, err
	}
	return tool.Result{Details: t.issues[k]}, nil
}

func (t *Tracker) update(_ context.Context, c tool.Call) (tool.Result, error) {
	var in struct{ ID, Title, State string }
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return tool.Result{}, fmt.Errorf("issues_update: %w", err)
	}
	if in.State != "" && in.State != "open" && in.State != "closed" {
		return tool.Result{}, fmt.Errorf("issues_update: unknown state %q", in.State)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	k, err := t.find(in.ID)
	if err != nil {
		return tool.Result{}, err
	}
	if in.Title != "" {
		t.issues[k].Title = in.Title
	}
	if in.State != "" {
		t.issues[k].State = in.State
	}
	return tool.Result{Details: t.issues[k]}, nil
}
