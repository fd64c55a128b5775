package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/tool"
)

type registeredNamespace struct {
	plugin string
	ns     tool.Namespace
	// serial tells this registration from a later one of the same id: a
	// prepared run keeps a namespace only while its registration stands.
	serial uint64
}

// namespaceSerial numbers registrations, process-wide.
var namespaceSerial atomic.Uint64

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// reservedGlobals are guest globals a namespace can never replace.
var reservedGlobals = map[string]bool{}

func init() {
	for _, g := range strings.Fields(`ALL_TOOLS API MCP tools text json yield_control namespaces
		globalThis undefined NaN Infinity eval Object Function Array Number String Boolean Symbol BigInt
		Math JSON Date RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError
		AggregateError InternalError Promise Proxy Reflect Map Set WeakMap WeakSet WeakRef
		FinalizationRegistry ArrayBuffer SharedArrayBuffer DataView Atomics Int8Array Uint8Array
		Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array
		BigInt64Array BigUint64Array Iterator parseInt parseFloat isNaN isFinite encodeURI decodeURI
		encodeURIComponent decodeURIComponent escape unescape queueMicrotask performance console
		TextEncoder TextDecoder URL URLSearchParams structuredClone atob btoa DOMException crypto
		setTimeout setInterval setImmediate clearTimeout clearInterval clearImmediate store load
		fetch XMLHttpRequest WebSocket EventSource Buffer Blob File Headers Event CustomEvent
		EventTarget AbortController AbortSignal`) {
		reservedGlobals[g] = true
	}
}

// RegisterNamespace registers a plugin's namespace. It is checked here, once:
// a usable id, a JavaScript identifier for GlobalName that is neither a
// reserved global nor an internal name, unique ids and global names, and at
// least one required tool.
func (r *Runtime) RegisterNamespace(pluginID string, ns tool.Namespace) error {
	switch {
	case pluginID == "" || ns.ID == "":
		return errors.New("register code mode namespace: plugin id and namespace id are required")
	case !identifier.MatchString(ns.GlobalName):
		return fmt.Errorf("register code mode namespace %s: globalName %q is not a JavaScript identifier", ns.ID, ns.GlobalName)
	case reservedGlobals[ns.GlobalName] || strings.HasPrefix(ns.GlobalName, "__"):
		return fmt.Errorf("register code mode namespace %s: globalName %q is reserved", ns.ID, ns.GlobalName)
	case len(ns.RequiredToolNames) == 0:
		return fmt.Errorf("register code mode namespace %s: requiredToolNames is empty", ns.ID)
	case ns.CreateScope == nil:
		return fmt.Errorf("register code mode namespace %s: no createScope", ns.ID)
	}
	r.nsMu.Lock()
	defer r.nsMu.Unlock()
	for _, x := range r.namespaces {
		if x.ns.ID == ns.ID || x.ns.GlobalName == ns.GlobalName {
			return fmt.Errorf("register code mode namespace %s: id or globalName %q already registered", ns.ID, ns.GlobalName)
		}
	}
	ns.RequiredToolNames = slices.Clone(ns.RequiredToolNames)
	r.namespaces = append(r.namespaces, registeredNamespace{pluginID, ns, namespaceSerial.Add(1)})
	return nil
}

// ClearNamespaces removes a plugin's registrations (rollback or uninstall).
// Runs prepared afterwards no longer see them, and neither does the next exec
// of a run prepared before; a parked exec keeps the scopes it was created
// with until it finishes.
func (r *Runtime) ClearNamespaces(pluginID string) {
	r.nsMu.Lock()
	defer r.nsMu.Unlock()
	r.namespaces = slices.DeleteFunc(r.namespaces, func(x registeredNamespace) bool { return x.plugin == pluginID })
}

// visibleNamespace is a namespace whose required tools are all in the run's
// catalog with the registering plugin as owner.
type visibleNamespace struct {
	registeredNamespace
	toolIDs map[string]string // required tool name -> exact catalog id
}

func (run *Run) resolveNamespaces() {
	run.rt.nsMu.Lock()
	regs := slices.Clone(run.rt.namespaces)
	run.rt.nsMu.Unlock()
	for _, reg := range regs {
		ids := map[string]string{}
		for _, name := range reg.ns.RequiredToolNames {
			id := catalog.ID(catalog.SourceOpenClaw, reg.plugin, name)
			if e, ok := run.tab.Catalog.Lookup(id); ok && e.Trusted() {
				ids[name] = id
			}
		}
		if len(ids) == len(reg.ns.RequiredToolNames) {
			run.namespaces = append(run.namespaces, visibleNamespace{reg, ids})
		}
	}
}

// namespaceText is what visible namespaces add to the exec description.
func (run *Run) namespaceText() string {
	var b strings.Builder
	for _, v := range run.namespaces {
		fmt.Fprintf(&b, "\n\nNamespace %s (also namespaces.%s): %s", v.ns.GlobalName, v.ns.GlobalName, v.ns.Description)
		if v.ns.Prompt != "" {
			b.WriteString("\n" + v.ns.Prompt)
		}
	}
	return b.String()
}

// nsDescriptor is a serialized scope value: k is v(alue), o(bject), a(rray)
// or f(unction).
type nsDescriptor struct {
	K string                   `json:"k"`
	V json.RawMessage          `json:"v,omitempty"`
	O map[string]*nsDescriptor `json:"o,omitempty"`
	A []*nsDescriptor          `json:"a,omitempty"`
	P string                   `json:"p,omitempty"`
}

type nsSetup struct {
	ID         string        `json:"id"`
	GlobalName string        `json:"globalName"`
	Scope      *nsDescriptor `json:"scope"`
}

// nsRuntime holds one exec's namespace scopes: the callables by path.
type nsRuntime map[string]*nsScope

type nsScope struct {
	v         visibleNamespace
	callables map[string]*tool.NamespaceCallable
}

// createNamespaces builds the scope of every namespace visible to the run
// whose registration still stands, for one exec.
func (run *Run) createNamespaces(ctx context.Context) (nsRuntime, []nsSetup, error) {
	rt, setup := nsRuntime{}, []nsSetup{}
	standing := map[uint64]bool{}
	run.rt.nsMu.Lock()
	for _, x := range run.rt.namespaces {
		standing[x.serial] = true
	}
	run.rt.nsMu.Unlock()
	for _, v := range run.namespaces {
		if !standing[v.serial] {
			continue
		}
		scope, err := v.ns.CreateScope(ctx, tool.NamespaceContext{Scope: run.opts.Scope, Config: run.rt.cfg})
		if err != nil {
			return nil, nil, fmt.Errorf("code mode namespace %s: create scope: %w", v.ns.ID, err)
		}
		s := &nsScope{v: v, callables: map[string]*tool.NamespaceCallable{}}
		d, err := s.serialize(reflect.ValueOf(scope), nil, map[uintptr]bool{})
		if err != nil {
			return nil, nil, err
		}
		rt[v.ns.ID] = s
		setup = append(setup, nsSetup{ID: v.ns.ID, GlobalName: v.ns.GlobalName, Scope: d})
	}
	return rt, setup, nil
}

func validSegment(k string) bool {
	return k != "" && k != "__proto__" && k != "constructor" && k != "prototype" && !strings.Contains(k, ".")
}

// serialize turns a scope value into a descriptor. onPath holds the maps and
// slices being serialized, to tell a cycle from a shared reference.
func (s *nsScope) serialize(v reflect.Value, path []string, onPath map[uintptr]bool) (*nsDescriptor, error) {
	at := strings.Join(path, ".")
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
		return &nsDescriptor{K: "v", V: json.RawMessage("null")}, nil
	}
	if c, ok := v.Interface().(*tool.NamespaceCallable); ok {
		s.callables[at] = c
		return &nsDescriptor{K: "f", P: at}, nil
	}
	if raw, ok := v.Interface().(json.RawMessage); ok && json.Valid(raw) {
		return &nsDescriptor{K: "v", V: raw}, nil
	}
	switch v.Kind() {
	case reflect.Func:
		return nil, fmt.Errorf("code mode namespace %s scope at %q is a raw function; it must be created with NamespaceTool", s.v.ns.ID, at)
	case reflect.Map, reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Map && v.Type().Key().Kind() != reflect.String {
			break
		}
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			break // bytes stay behind ordinary tools; JSON gives base64
		}
		var ptr uintptr
		if v.Kind() != reflect.Array {
			ptr = v.Pointer()
		}
		if ptr != 0 {
			if onPath[ptr] {
				return nil, tool.Messagef("Circular code mode namespace scope at %s", at)
			}
			onPath[ptr] = true
			defer delete(onPath, ptr)
		}
		if v.Kind() == reflect.Map {
			d := &nsDescriptor{K: "o", O: map[string]*nsDescriptor{}}
			keys := v.MapKeys()
			sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
			for _, k := range keys {
				if !validSegment(k.String()) {
					return nil, tool.Messagef("Invalid code mode namespace path segment: %q", k.String())
				}
				c, err := s.serialize(v.MapIndex(k), append(path, k.String()), onPath)
				if err != nil {
					return nil, err
				}
				d.O[k.String()] = c
			}
			return d, nil
		}
		d := &nsDescriptor{K: "a", A: []*nsDescriptor{}}
		for i := range v.Len() {
			c, err := s.serialize(v.Index(i), append(path, fmt.Sprint(i)), onPath)
			if err != nil {
				return nil, err
			}
			d.A = append(d.A, c)
		}
		return d, nil
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		b, _ = json.Marshal(fmt.Sprint(v.Interface()))
	}
	return &nsDescriptor{K: "v", V: b}, nil
}

// callNamespace runs a guest namespace call through the exact-id executor.
func (run *Run) callNamespace(ctx context.Context, st *state, pc *pendingCall, payload []byte) (any, error) {
	var a struct {
		ID   string            `json:"id"`
		Path string            `json:"path"`
		Args []json.RawMessage `json:"args"`
	}
	if json.Unmarshal(payload, &a) != nil {
		return nil, errors.New("invalid code mode namespace call")
	}
	s, ok := st.namespaces[a.ID]
	if !ok {
		return nil, tool.Messagef("Unknown code mode namespace: %s", a.ID)
	}
	c, ok := s.callables[a.Path]
	if !ok {
		return nil, tool.Messagef("Code mode namespace path is not callable: %s", a.Path)
	}
	id, ok := s.v.toolIDs[c.ToolName()]
	if !ok {
		return nil, tool.Messagef("Code mode namespace path targets undeclared tool: %s", c.ToolName())
	}
	input, err := c.Input(a.Args)
	if err != nil {
		return nil, err
	}
	res, err := run.callNested(ctx, st, pc, run.tab.ByID[id], id, input)
	if err != nil {
		return nil, err
	}
	if res.Details != nil {
		return res.Details, nil
	}
	return res, nil
}
