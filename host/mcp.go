package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed11a79d2d/codemode/catalog"
)

// Source supplies tools to every prepared run, for example the tools of
// downstream MCP servers. Tools is called by each [Runtime.Prepare], so a
// source whose tools change (an MCP tools/list_changed) serves new runs the
// new list.
type Source interface {
	Tools() []Tool
}

// MCPSource is a [Source] of MCP server tools (tools with MCPServer set) that
// also serves those servers' resources and prompts.
type MCPSource interface {
	Source
	// MCPRequest runs method ("resources/list", "resources/read",
	// "prompts/list" or "prompts/get") with JSON params on the named server.
	// It returns ErrUnknownServer for a server it does not own.
	MCPRequest(ctx context.Context, server, method string, params json.RawMessage) (any, error)
}

// ErrUnknownServer is returned by an [MCPSource] for a server it does not own.
var ErrUnknownServer = errors.New("unknown MCP server")

// mcpSetup is the guest data for the MCP object: per server, its identifier
// and its tools' identifiers with their exact ids.
type mcpSetup struct {
	Identifier string      `json:"identifier"`
	Tools      [][2]string `json:"tools"`
}

func (run *Run) mcpSetup() []mcpSetup {
	out := []mcpSetup{}
	for _, s := range run.catalog.MCPServers() {
		ms := mcpSetup{Identifier: s.Identifier, Tools: [][2]string{}}
		for _, t := range s.Tools {
			ms.Tools = append(ms.Tools, [2]string{t.Identifier, t.ID})
		}
		out = append(out, ms)
	}
	return out
}

// mcpCall runs MCP.<server>.<tool>(input): schema defaults are applied and
// missing required keys refused before the call; the tool's MCP result
// ({content, structuredContent?, isError?}) is the value, isError included.
func (run *Run) mcpCall(ctx context.Context, st *state, pc *pendingCall, rawID, input json.RawMessage) (any, error) {
	var id string
	if json.Unmarshal(rawID, &id) != nil {
		return nil, errors.New("id must be a string.")
	}
	tool, ok := run.mcpTools[id]
	if !ok {
		return nil, fmt.Errorf("Unknown MCP tool id: %s", id)
	}
	var args map[string]json.RawMessage
	if len(input) == 0 || string(input) == "null" {
		args = map[string]json.RawMessage{}
	} else if json.Unmarshal(input, &args) != nil || args == nil {
		return nil, errors.New("MCP namespace tools accept one object argument.")
	}
	for _, d := range tool.Defaults {
		if _, ok := args[d.Key]; !ok {
			args[d.Key] = d.Value
		}
	}
	var missing []string
	for _, k := range tool.Required {
		if _, ok := args[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("Missing required MCP namespace argument(s): %s", strings.Join(missing, ", "))
	}
	b, _ := json.Marshal(args)
	res, err := run.execute(ctx, st, pc, id, b)
	if err != nil {
		return nil, err
	}
	if res.Details != nil {
		return res.Details, nil
	}
	return map[string]any{"content": res.Content}, nil
}

// mcpAPI serves MCP.$api() and MCP.<server>.$api(selector, {schema}).
func (run *Run) mcpAPI(payload []byte) (any, error) {
	var a struct {
		Server   *string `json:"server"`
		Selector string  `json:"selector"`
		Schema   bool    `json:"schema"`
	}
	if json.Unmarshal(payload, &a) != nil {
		return nil, errors.New("invalid $api arguments")
	}
	if a.Server == nil {
		return run.catalog.MCPRootAPI(), nil
	}
	return run.catalog.MCPServerAPI(*a.Server, a.Selector, a.Schema)
}

// mcpRequest serves MCP.<server>.resources.list/read and prompts.list/get.
func (run *Run) mcpRequest(ctx context.Context, payload []byte) (any, error) {
	var a struct {
		Server string          `json:"server"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(payload, &a) != nil {
		return nil, errors.New("invalid MCP request")
	}
	switch a.Method {
	case "resources/list", "resources/read", "prompts/list", "prompts/get":
	default:
		return nil, fmt.Errorf("unsupported MCP method %q", a.Method)
	}
	if len(a.Params) == 0 || string(a.Params) == "null" {
		a.Params = json.RawMessage("{}")
	}
	var name string
	for _, s := range run.catalog.MCPServers() {
		if s.Identifier == a.Server {
			name = s.Name
		}
	}
	if name == "" {
		return nil, fmt.Errorf("Unknown MCP server: %s", a.Server)
	}
	for _, src := range run.rt.sources {
		if ms, ok := src.(MCPSource); ok {
			v, err := ms.MCPRequest(ctx, name, a.Method, a.Params)
			if errors.Is(err, ErrUnknownServer) {
				continue
			}
			return v, err
		}
	}
	return nil, fmt.Errorf("MCP server %s does not serve %s", name, a.Method)
}

// indexMCP maps the run's MCP tool ids to their namespace metadata.
func (run *Run) indexMCP() {
	run.mcpTools = map[string]catalog.MCPTool{}
	for _, s := range run.catalog.MCPServers() {
		for _, t := range s.Tools {
			run.mcpTools[t.ID] = t
		}
	}
}
