// Package config loads the codemode command's configuration file: JSON5 with
// tools.codeMode, tool allow/deny and direct-only lists, plugin switches and
// downstream MCP servers.
//
// Errors name the file, line, column and field; unknown keys are warnings, so
// a typo is reported instead of silently ignored.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/suggest"
	"github.com/seed11a79d2d/codemode/provider"
)

// knownPlugins are the plugin ids the codemode command can switch on.
var knownPlugins = []string{"demo", "tracker"}

// File is a loaded configuration file.
type File struct {
	Path string
	// CodeMode is the tools.codeMode value as JSON, or nil when the key is
	// absent (code mode off, as the contract says). It has been checked with
	// [host.ResolveConfig].
	CodeMode json.RawMessage
	// ToolSearch is the tools.toolSearch value as JSON, or nil when the key
	// is absent. It has been checked with [host.ResolveToolSearch].
	ToolSearch json.RawMessage
	// Swarm is tools.swarm as JSON, or nil when absent (off). It has been
	// checked with [host.ResolveSwarm].
	Swarm json.RawMessage
	// Provider is tools.swarm.provider, resolved, when tools.swarm is on;
	// nil otherwise (children then run through sampling under serve).
	Provider *provider.Config
	// Allow is tools.allow: nil when absent (every tool), otherwise the only
	// tool names kept, so an empty list keeps none. Deny is tools.deny.
	Allow []string
	Deny  []string
	// DirectOnly is tools.directOnly: names of registered (plugin) tools that
	// stay visible to the model instead of being catalogued.
	DirectOnly []string
	// Approval is tools.approval: the calls a person must approve.
	Approval Approval
	// NoLearn is tools.learnShapes set to false: the result shapes of MCP
	// tools without an output schema are not learned.
	NoLearn bool
	// Plugins holds the switch of each plugin named under plugins; a plugin
	// not named is off.
	Plugins map[string]bool
	// Engine names the engine ("wazero", or "wasmtime" in binaries built
	// with that tag); empty means the default. The command checks it.
	Engine string
	// Store is the store key; nil keeps parked runs in the process.
	Store *Store
	// Redact is the top-level redact key: credentials are redacted from
	// every server's tool results and from what cells send the model.
	Redact bool
	// MCPServers are the downstream MCP servers, sorted by name.
	MCPServers []MCPServer
	// Warnings are "file:line:col: field: message" lines: unknown keys and
	// tools.codeMode values that were replaced or clamped.
	Warnings []string

	root *Node
}

// Approval is tools.approval.
type Approval struct {
	// Tools are names or exact ids of tools and MCP operations.
	Tools []string
	// Destructive adds every tool whose MCP annotations mark it destructive.
	Destructive bool
	// AllowWithoutClient approves calls when no client can ask a person
	// (one without elicitation, or the exec command); the default denies.
	AllowWithoutClient bool
}

// MCPServer is one entry of mcpServers (or VS Code's servers): a command to
// start (stdio) or a URL (streamable HTTP, or legacy HTTP+SSE), its
// variables expanded.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	// Env is the server's env over its envFile's variables.
	Env map[string]string
	// InheritEnv is inheritEnv: the server gets this process's whole
	// environment (but CODEMODE_ variables), not just the default allowlist.
	InheritEnv bool
	Cwd        string
	URL        string
	Headers    map[string]string
	// SSE marks a URL as a legacy HTTP+SSE endpoint (type "sse").
	SSE bool
	// DirectOnly names tools of this server that stay visible to the model.
	DirectOnly []string
	// OAuth is the oauth key; nil when absent.
	OAuth *OAuth
	// Trust is the trust key: "pin" (also ""), "auto" or "strict".
	Trust string
	// Redact is the server's redact key; nil when absent (the top-level
	// redact decides).
	Redact *bool
	// SecretEnv names env variables whose values are secrets to redact,
	// besides those whose names say so.
	SecretEnv []string
}

// Error is a configuration value that cannot be used. Field is the dotted
// path of the value ("tools.allow[1]"), empty for a syntax error.
type Error struct {
	File      string
	Line, Col int
	Field     string
	Msg       string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Col, e.Field, e.Msg)
}

// Load reads and parses the file at path.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse parses data, naming path in errors and warnings.
func Parse(path string, data []byte) (*File, error) {
	root, err := ParseJSON5(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{File: path, Line: se.Line, Col: se.Col, Msg: se.Msg}
		}
		return nil, err
	}
	f := &File{Path: path, Plugins: map[string]bool{}, root: root}
	d := &decoder{f: f, x: &expander{path: path, inputs: map[string]string{}}}
	d.top(root)
	if d.err != nil {
		return nil, d.err
	}
	f.Deny = append(f.Deny, d.disabledTools...)
	cm, _, _ := host.ResolveConfig(f.CodeMode, nil)
	if ts, _, _ := host.ResolveToolSearch(f.ToolSearch); cm.Enabled && ts.Enabled {
		line, col := d.keyPos("tools.toolSearch")
		d.warn(line, col, "tools.toolSearch", "code mode is enabled too, and code mode wins, so Tool Search is never offered")
	}
	if f.CodeMode == nil && f.ToolSearch == nil && len(f.MCPServers) > 0 {
		// A file that names servers is one pasted from an MCP client, and
		// code mode is what the codemode command is for (unless the file
		// asks for Tool Search).
		f.CodeMode = json.RawMessage(`true`)
	}
	return f, nil
}

// Pos returns "file:line:col" of the value at the dotted field path, or of
// its closest present parent.
func (f *File) Pos(field string) string {
	n := lookup(f.root, field)
	return fmt.Sprintf("%s:%d:%d", f.Path, n.Line, n.Col)
}

// lookup finds the node at a dotted field path ("a.b[2]", `a["x.y"]`), or
// its closest present parent.
func lookup(root *Node, field string) *Node {
	n := root
	for _, part := range splitField(field) {
		var c *Node
		if n.Kind == Array && strings.HasPrefix(part, "[") {
			var i int
			if _, err := fmt.Sscanf(part, "[%d]", &i); err == nil && i >= 0 && i < len(n.Elems) {
				c = n.Elems[i]
			}
		} else if strings.HasPrefix(part, "[") {
			var key string
			if _, err := fmt.Sscanf(part[1:], "%q", &key); err == nil {
				c = n.Get(key)
			}
		} else {
			c = n.Get(part)
		}
		if c == nil {
			break
		}
		n = c
	}
	return n
}

// splitField splits `a.b[2]["x.y"].c` into a, b, [2], ["x.y"], c.
func splitField(field string) []string {
	var parts []string
	cur := ""
	flush := func() {
		if cur != "" {
			parts = append(parts, cur)
		}
		cur = ""
	}
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '.':
			flush()
		case '[':
			flush()
			j, quoted := i+1, false
			for ; j < len(field); j++ {
				if field[j] == '\\' && quoted {
					j++
				} else if field[j] == '"' {
					quoted = !quoted
				} else if field[j] == ']' && !quoted {
					break
				}
			}
			end := min(j+1, len(field))
			parts = append(parts, field[i:end])
			i = end - 1
		default:
			cur += string(c)
		}
	}
	flush()
	return parts
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func join(parent, key string) string {
	if !identRE.MatchString(key) {
		key = fmt.Sprintf("[%q]", key)
		return parent + key
	}
	if parent == "" {
		return key
	}
	return parent + "." + key
}

type decoder struct {
	f   *File
	x   *expander
	err error
	// disabledTools are Windsurf's, by id: added to tools.deny wherever that
	// is in the file.
	disabledTools []string
}

// expand expands the variables of a string value in place.
func (d *decoder) expand(n *Node, field string, s *string) {
	v, err := d.x.expand(*s)
	if err != nil {
		d.fail(n, field, "%v", err)
		return
	}
	*s = v
}

func (d *decoder) fail(n *Node, field, format string, args ...any) {
	if d.err == nil {
		d.err = &Error{File: d.f.Path, Line: n.Line, Col: n.Col, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) warn(line, col int, field, msg string) {
	d.f.Warnings = append(d.f.Warnings, fmt.Sprintf("%s:%d:%d: %s: %s", d.f.Path, line, col, field, msg))
}

// object checks that n is an object and calls each known key's handler in
// source order; other keys are warnings.
func (d *decoder) object(n *Node, field string, keys map[string]func(v *Node, field string)) {
	if n.Kind != Object {
		d.fail(n, field, "must be an object, not %s", article(n.Kind))
		return
	}
	for _, m := range n.Members {
		sub := join(field, m.Key)
		h, ok := keys[m.Key]
		if !ok {
			msg := "unknown key ignored"
			if near := suggest.Closest(m.Key, maps.Keys(keys)); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			d.warn(m.Line, m.Col, sub, msg)
			continue
		}
		h(m.Value, sub)
		if d.err != nil {
			return
		}
	}
}

func article(k Kind) string {
	switch k {
	case Array, Object:
		return "an " + k.String()
	case Null:
		return "null"
	}
	return "a " + k.String()
}

func (d *decoder) str(n *Node, field string, dst *string) {
	if n.Kind != String {
		d.fail(n, field, "must be a string, not %s", article(n.Kind))
		return
	}
	*dst = n.Str
}

func (d *decoder) boolean(n *Node, field string, dst *bool) {
	if n.Kind != Bool {
		d.fail(n, field, "must be a boolean, not %s", article(n.Kind))
		return
	}
	*dst = n.Bool
}

func (d *decoder) strings(n *Node, field string, dst *[]string) {
	if n.Kind != Array {
		d.fail(n, field, "must be an array of strings, not %s", article(n.Kind))
		return
	}
	out := []string{}
	for i, e := range n.Elems {
		if e.Kind != String {
			d.fail(e, fmt.Sprintf("%s[%d]", field, i), "must be a string, not %s", article(e.Kind))
			return
		}
		out = append(out, e.Str)
	}
	*dst = out
}

func (d *decoder) stringMap(n *Node, field string, dst *map[string]string) {
	if n.Kind != Object {
		d.fail(n, field, "must be an object of strings, not %s", article(n.Kind))
		return
	}
	out := map[string]string{}
	for _, m := range n.Members {
		if m.Value.Kind != String {
			d.fail(m.Value, join(field, m.Key), "must be a string, not %s", article(m.Value.Kind))
			return
		}
		out[m.Key] = m.Value.Str
	}
	*dst = out
}

func (d *decoder) top(root *Node) {
	if in := root.Get("inputs"); root.Kind == Object && in != nil {
		d.inputs(in, "inputs") // before the servers that use them, wherever they are
	}
	d.object(root, "", map[string]func(*Node, string){
		"$schema":    func(*Node, string) {},
		"tools":      d.tools,
		"plugins":    d.plugins,
		"mcpServers": d.mcpServers,
		"servers":    d.mcpServers, // VS Code's mcp.json
		"inputs":     func(*Node, string) {},
		"engine":     func(v *Node, f string) { d.str(v, f, &d.f.Engine) },
		"store":      d.store,
		"redact":     func(v *Node, f string) { d.boolean(v, f, &d.f.Redact) },
	})
	slices.SortFunc(d.f.MCPServers, func(a, b MCPServer) int { return strings.Compare(a.Name, b.Name) })
}

// inputs reads VS Code's inputs: the ids ${input:id} may name.
func (d *decoder) inputs(n *Node, field string) {
	if n.Kind != Array {
		d.fail(n, field, "must be an array of inputs, not %s", article(n.Kind))
		return
	}
	for i, e := range n.Elems {
		var id, desc string
		d.object(e, fmt.Sprintf("%s[%d]", field, i), map[string]func(*Node, string){
			"id":          func(v *Node, f string) { d.str(v, f, &id) },
			"description": func(v *Node, f string) { d.str(v, f, &desc) },
			"type":        func(*Node, string) {},
			"password":    func(*Node, string) {},
			"default":     func(*Node, string) {},
			"options":     func(*Node, string) {},
		})
		if d.err != nil {
			return
		}
		d.x.inputs[id] = desc
	}
}

func (d *decoder) tools(n *Node, field string) {
	d.object(n, field, map[string]func(*Node, string){
		"codeMode":   d.codeMode,
		"toolSearch": d.toolSearch,
		"swarm":      d.swarm,
		"allow":      func(v *Node, f string) { d.strings(v, f, &d.f.Allow) },
		"deny":       func(v *Node, f string) { d.strings(v, f, &d.f.Deny) },
		"directOnly": func(v *Node, f string) { d.strings(v, f, &d.f.DirectOnly) },
		"approval":   d.approval,
		"learnShapes": func(v *Node, f string) {
			learn := true
			d.boolean(v, f, &learn)
			d.f.NoLearn = !learn
		},
	})
}

// approval is tools.approval: a list of tool names and ids, or an object
// with that list as tools, destructive and withoutClient.
func (d *decoder) approval(n *Node, field string) {
	a := &d.f.Approval
	switch n.Kind {
	case Array:
		d.strings(n, field, &a.Tools)
		return
	case Object:
	default:
		d.fail(n, field, "must be an array of tool names and ids, or an object with tools, destructive and withoutClient; not %s", article(n.Kind))
		return
	}
	d.object(n, field, map[string]func(*Node, string){
		"tools": func(v *Node, f string) { d.strings(v, f, &a.Tools) },
		"destructive": func(v *Node, f string) {
			if v.Kind != Bool {
				d.fail(v, f, "must be a boolean, not %s", article(v.Kind))
			}
			a.Destructive = v.Bool
		},
		"withoutClient": func(v *Node, f string) {
			var s string
			if d.str(v, f, &s); d.err == nil && s != "deny" && s != "allow" {
				d.fail(v, f, "must be \"deny\" or \"allow\", not %q", s)
			}
			a.AllowWithoutClient = s == "allow"
		},
	})
}

// codeMode checks tools.codeMode with the host's own resolver, so the file
// is refused for exactly the values the host refuses, and places its
// findings on the right line.
func (d *decoder) codeMode(n *Node, field string) {
	raw := n.JSON()
	_, warnings, err := host.ResolveConfig(raw, nil)
	if d.resolved(n, field, warnings, err) {
		d.f.CodeMode = raw
	}
}

// toolSearch checks tools.toolSearch with the host's resolver, as codeMode
// does tools.codeMode.
func (d *decoder) toolSearch(n *Node, field string) {
	raw := n.JSON()
	_, warnings, err := host.ResolveToolSearch(raw)
	if d.resolved(n, field, warnings, err) {
		d.f.ToolSearch = raw
	}
}

// resolved places a host resolver's error or warnings on their lines, and
// reports whether the value is usable.
func (d *decoder) resolved(n *Node, field string, warnings []string, err error) bool {
	if err != nil {
		var ce *host.ConfigError
		if errors.As(err, &ce) {
			at := d.node(ce.Field)
			d.fail(at, ce.Field, "%s", ce.Problem)
			return false
		}
		d.fail(n, field, "%v", err)
		return false
	}
	for _, w := range warnings {
		sub, msg, ok := strings.Cut(w, ": ")
		if !ok {
			sub, msg = field, w
		}
		line, col := d.keyPos(sub)
		d.f.Warnings = append(d.f.Warnings, fmt.Sprintf("%s:%d:%d: %s: %s", d.f.Path, line, col, sub, msg))
	}
	return true
}

// node finds the node at a dotted field path, or its closest present parent.
func (d *decoder) node(field string) *Node { return lookup(d.f.root, field) }

// keyPos is where the key of the field starts, or where its closest present
// parent's value starts.
func (d *decoder) keyPos(field string) (line, col int) {
	parts := splitField(field)
	if len(parts) > 0 {
		last := parts[len(parts)-1]
		parent := lookup(d.f.root, field[:len(field)-len(last)])
		for _, m := range parent.Members {
			if m.Key == strings.Trim(last, `[]"`) {
				return m.Line, m.Col
			}
		}
	}
	n := d.node(field)
	return n.Line, n.Col
}

func (d *decoder) plugins(n *Node, field string) {
	if n.Kind != Object {
		d.fail(n, field, "must be an object, not %s", article(n.Kind))
		return
	}
	for _, m := range n.Members {
		sub := join(field, m.Key)
		if !slices.Contains(knownPlugins, m.Key) {
			d.warn(m.Line, m.Col, sub, fmt.Sprintf("unknown plugin ignored (known: %s)", strings.Join(knownPlugins, ", ")))
			continue
		}
		v := m.Value
		switch v.Kind {
		case Bool:
			d.f.Plugins[m.Key] = v.Bool
		case Object:
			on := true
			d.object(v, sub, map[string]func(*Node, string){
				"enabled": func(v *Node, f string) {
					if v.Kind != Bool {
						d.fail(v, f, "must be a boolean, not %s", article(v.Kind))
						return
					}
					on = v.Bool
				},
			})
			d.f.Plugins[m.Key] = on
		default:
			d.fail(v, sub, "must be a boolean or an object with enabled, not %s", article(v.Kind))
		}
		if d.err != nil {
			return
		}
	}
}

var serverNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// serverTypes are the type (or Cline's transportType) values of MCP
// clients' configs, and whether each is legacy SSE.
var serverTypes = map[string]bool{"stdio": false, "http": false, "streamable-http": false, "streamableHttp": false, "sse": true}

func (d *decoder) mcpServers(n *Node, field string) {
	if n.Kind != Object {
		d.fail(n, field, "must be an object of servers by name, not %s", article(n.Kind))
		return
	}
	for _, m := range n.Members {
		sub := join(field, m.Key)
		if !serverNameRE.MatchString(m.Key) {
			d.fail(&Node{Line: m.Line, Col: m.Col}, sub, "server names use letters, digits, '_', '.' and '-', starting with a letter or digit")
			return
		}
		if slices.ContainsFunc(d.f.MCPServers, func(s MCPServer) bool { return s.Name == m.Key }) {
			d.fail(&Node{Line: m.Line, Col: m.Col}, sub, "a server of this name is already configured")
			return
		}
		s := MCPServer{Name: m.Key}
		var typ, envFile string
		var typNode, envFileNode *Node
		var disabled bool
		commandOnly, urlOnly := false, false
		url := func(v *Node, f string) { d.str(v, f, &s.URL); d.expand(v, f, &s.URL) }
		kind := func(v *Node, f string) {
			typNode = v
			d.str(v, f, &typ)
		}
		d.object(m.Value, sub, map[string]func(*Node, string){
			"type":          kind,
			"transportType": kind, // Cline
			"command":       func(v *Node, f string) { d.str(v, f, &s.Command); d.expand(v, f, &s.Command) },
			"args":          func(v *Node, f string) { commandOnly = true; d.expandedStrings(v, f, &s.Args) },
			"env":           func(v *Node, f string) { commandOnly = true; d.expandedMap(v, f, &s.Env) },
			"envFile": func(v *Node, f string) {
				commandOnly, envFileNode = true, v
				d.str(v, f, &envFile)
				d.expand(v, f, &envFile)
			},
			"cwd":        func(v *Node, f string) { commandOnly = true; d.str(v, f, &s.Cwd); d.expand(v, f, &s.Cwd) },
			"inheritEnv": func(v *Node, f string) { commandOnly = true; d.boolean(v, f, &s.InheritEnv) },
			"url":        url,
			"serverUrl":  url, // Windsurf
			"headers":    func(v *Node, f string) { urlOnly = true; d.expandedMap(v, f, &s.Headers) },
			"directOnly": func(v *Node, f string) { d.strings(v, f, &s.DirectOnly) },
			"oauth":      func(v *Node, f string) { urlOnly = true; d.oauth(v, f, &s) },
			"disabled":   func(v *Node, f string) { d.boolean(v, f, &disabled) }, // Cline, Windsurf
			"trust": func(v *Node, f string) {
				if d.str(v, f, &s.Trust); d.err == nil && !slices.Contains([]string{"pin", "auto", "strict"}, s.Trust) {
					d.fail(v, f, "must be \"pin\", \"auto\" or \"strict\", not %q", s.Trust)
				}
			},
			"redact": func(v *Node, f string) {
				var on bool
				d.boolean(v, f, &on)
				s.Redact = &on
			},
			"secretEnv": func(v *Node, f string) { d.strings(v, f, &s.SecretEnv) },
			"disabledTools": func(v *Node, f string) { // Windsurf: denied by id
				var tools []string
				d.strings(v, f, &tools)
				for _, t := range tools {
					d.disabledTools = append(d.disabledTools, "mcp:"+m.Key+":"+t)
				}
			},
			// Keys of other clients that mean nothing here.
			"autoApprove": func(*Node, string) {}, "alwaysAllow": func(*Node, string) {},
			"timeout": func(*Node, string) {}, "dev": func(*Node, string) {}, "description": func(*Node, string) {},
		})
		if d.err != nil {
			return
		}
		sse, knownType := serverTypes[typ]
		switch {
		case typ != "" && !knownType:
			d.fail(typNode, sub+".type", "must be \"stdio\", \"http\", \"streamable-http\" or \"sse\", not %q", typ)
		case s.Command == "" && s.URL == "":
			d.fail(m.Value, sub, "needs a command (stdio) or a url (streamable HTTP or SSE)")
		case s.Command != "" && s.URL != "":
			d.fail(m.Value, sub, "has both command and url; give one")
		case typ == "stdio" && s.Command == "":
			d.fail(typNode, sub+".type", "\"stdio\" needs a command")
		case typ != "" && typ != "stdio" && s.URL == "":
			d.fail(typNode, sub+".type", "%q needs a url", typ)
		case s.Command == "" && commandOnly:
			d.fail(m.Value, sub, "args, env, envFile, cwd and inheritEnv apply only to a command")
		case s.URL == "" && urlOnly:
			d.fail(m.Value, sub, "headers and oauth apply only to a url")
		case s.OAuth != nil && !s.OAuth.Off && sse:
			d.fail(m.Value, sub, "oauth applies only to a streamable HTTP url, not to \"sse\"")
		}
		if d.err != nil {
			return
		}
		s.SSE = sse
		if envFile != "" {
			d.readEnvFile(envFileNode, sub+".envFile", envFile, &s)
			if d.err != nil {
				return
			}
		}
		if disabled {
			continue
		}
		d.f.MCPServers = append(d.f.MCPServers, s)
	}
}

// readEnvFile adds a server's envFile (relative to the config file) under
// its env.
func (d *decoder) readEnvFile(n *Node, field, path string, s *MCPServer) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(d.f.Path), path)
	}
	vars, err := readEnvFile(path)
	if err != nil {
		d.fail(n, field, "%v", err)
		return
	}
	for k, v := range s.Env {
		vars[k] = v
	}
	s.Env = vars
}

// expandedStrings is strings with each element's variables expanded.
func (d *decoder) expandedStrings(n *Node, field string, dst *[]string) {
	d.strings(n, field, dst)
	for i := range *dst {
		if d.err == nil {
			d.expand(n.Elems[i], fmt.Sprintf("%s[%d]", field, i), &(*dst)[i])
		}
	}
}

// expandedMap is stringMap with each value's variables expanded.
func (d *decoder) expandedMap(n *Node, field string, dst *map[string]string) {
	d.stringMap(n, field, dst)
	if d.err != nil {
		return
	}
	for _, m := range n.Members {
		v := (*dst)[m.Key]
		d.expand(m.Value, join(field, m.Key), &v)
		(*dst)[m.Key] = v
	}
}
