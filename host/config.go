package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/seed11a79d2d/codemode/internal/suggest"
)

// Config is the resolved tools.codeMode configuration (docs/contract.md).
// Values produced by [ResolveConfig] are always within bounds; a hand-built
// Config goes through the same defaults and clamps when the runtime takes it.
// The zero Config means "code mode off, every other field at its default".
type Config struct {
	// Enabled is the only activation gate; nothing else turns code mode on.
	Enabled bool
	// Runtime is always "quickjs-wasi", the one engine the contract allows.
	Runtime string
	// Mode is always "only": control and direct-only tools are exposed, the
	// rest are catalogued.
	Mode string
	// Languages lists the accepted exec languages, LanguageJavaScript
	// and/or LanguageTypeScript, deduplicated, in first-seen order; never
	// empty.
	Languages []Language
	// Timeout is the wall clock for one exec or wait (100ms..60s, default 10s).
	Timeout time.Duration
	// MemoryLimitBytes caps the QuickJS heap (1 MiB..1 GiB, default 64 MiB).
	MemoryLimitBytes int
	// MaxOutputBytes caps text, JSON and logs returned (1024..10 MiB, default 65536).
	MaxOutputBytes int
	// MaxSnapshotBytes caps serialized VM state (1024..256 MiB, default 10 MiB).
	MaxSnapshotBytes int
	// MaxPendingToolCalls caps concurrent nested calls per run (1..128, default 16).
	MaxPendingToolCalls int
	// SnapshotTTL is how long a suspended run can be resumed (1s..24h, default 15m).
	SnapshotTTL time.Duration
	// SearchDefaultLimit is tools.search's limit when none is given
	// (1..MaxSearchLimit, default 8).
	SearchDefaultLimit int
	// MaxSearchLimit caps any tools.search limit (1..50, default 50).
	MaxSearchLimit int
}

// Fixed values of tools.codeMode.
const (
	runtimeQuickJSWASI = "quickjs-wasi"
	modeOnly           = "only"
)

// Language is a language exec accepts.
type Language string

// Languages of tools.codeMode.languages and of exec's language argument.
const (
	LanguageJavaScript Language = "javascript"
	LanguageTypeScript Language = "typescript"
)

func (l Language) String() string { return string(l) }

// ConfigError is a tools.codeMode value that cannot be used. Field is the
// full dotted path ("tools.codeMode.enabled", or with the "agents.list[].tools.codeMode"
// prefix for the per-agent override) so the operator can find the line.
type ConfigError struct {
	Field   string
	Problem string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Problem }

// configIntField is one numeric key: its default and inclusive bounds.
type configIntField struct {
	key           string
	def, min, max int
}

// clamp is the rule for a number set in Go: below 1 it takes the default,
// else it is clamped to the bounds (ResolveConfig's rule, without the
// warnings).
func (f configIntField) clamp(x int64) int {
	switch {
	case x < 1:
		return f.def
	case x < int64(f.min):
		return f.min
	case x > int64(f.max):
		return f.max
	}
	return int(x)
}

var configIntFields = []configIntField{
	{"timeoutMs", 10000, 100, 60000},
	{"memoryLimitBytes", 64 << 20, 1 << 20, 1 << 30},
	{"maxOutputBytes", 65536, 1024, 10 << 20},
	{"maxSnapshotBytes", 10 << 20, 1024, 256 << 20},
	{"maxPendingToolCalls", 16, 1, 128},
	{"snapshotTtlSeconds", 900, 1, 86400},
	{"maxSearchLimit", 50, 1, 50},
	// Its upper bound is maxSearchLimit, applied after the table.
	{"searchDefaultLimit", 8, 1, 50},
}

// defaultConfig is the configuration of a missing tools.codeMode: disabled,
// every other field at its documented default.
func defaultConfig() Config {
	c, _, _ := ResolveConfig(nil, nil)
	return c
}

// ResolveConfig resolves tools.codeMode from the global value and an optional
// per-agent override (agents.list[].tools.codeMode). Each is raw JSON that may
// be missing (nil or empty), null, true, false or an object; true means
// {"enabled":true} and false or null mean {}. The agent object is shallow-merged
// over the global one, agent keys winning, as OpenClaw's Code Mode does.
//
// Errors (a *ConfigError naming the field) are reserved for values whose JSON
// type is wrong or whose meaning cannot be guessed: a non-boolean enabled, a
// runtime other than "quickjs-wasi", a mode other than "only", languages that
// is not an array of strings, a number field holding a string, boolean, array
// or object. Operators get a clear message instead of a silently ignored key.
//
// Numbers follow OpenClaw's rule and never fail: a value that is not a
// positive integer (0, -1, 1.5, overflow) becomes the default, then the value is
// clamped to its bounds. Warnings report each number that was replaced or
// clamped, each dropped language name and each unknown key; they are for logs.
// A null field counts as absent.
func ResolveConfig(global, agent json.RawMessage) (Config, []string, error) {
	return resolveConfig(global, agent, "tools.codeMode")
}

// resolveConfig is ResolveConfig for the key at prefix: tools.codeMode, or
// tools.toolSearch, whose bounds follow the same rules.
func resolveConfig(global, agent json.RawMessage, key string) (Config, []string, error) {
	var warnings []string
	g, err := normalizeConfigValue(global, key, &warnings)
	if err != nil {
		return Config{}, nil, err
	}
	a, err := normalizeConfigValue(agent, "agents.list[]."+key, &warnings)
	if err != nil {
		return Config{}, nil, err
	}
	merged := map[string]json.RawMessage{}
	for k, v := range g.values {
		merged[k] = v
	}
	for k, v := range a.values {
		merged[k] = v
	}
	prefix := func(key string) string {
		if _, ok := a.values[key]; ok {
			return a.prefix + "." + key
		}
		return g.prefix + "." + key
	}
	c := Config{Runtime: runtimeQuickJSWASI, Mode: modeOnly}
	c.Enabled = string(merged["enabled"]) == "true"
	c.Languages, warnings = resolveConfigLanguages(merged["languages"], prefix("languages"), warnings)
	ints := map[string]int{}
	for _, f := range configIntFields {
		ints[f.key], warnings = resolveConfigInt(merged[f.key], f, prefix(f.key), warnings)
	}
	if d := ints["searchDefaultLimit"]; d > ints["maxSearchLimit"] {
		if _, set := merged["searchDefaultLimit"]; set {
			warnings = append(warnings, fmt.Sprintf("%s: %d clamped to maxSearchLimit %d",
				prefix("searchDefaultLimit"), d, ints["maxSearchLimit"]))
		}
		ints["searchDefaultLimit"] = ints["maxSearchLimit"]
	}
	c.Timeout = time.Duration(ints["timeoutMs"]) * time.Millisecond
	c.MemoryLimitBytes = ints["memoryLimitBytes"]
	c.MaxOutputBytes = ints["maxOutputBytes"]
	c.MaxSnapshotBytes = ints["maxSnapshotBytes"]
	c.MaxPendingToolCalls = ints["maxPendingToolCalls"]
	c.SnapshotTTL = time.Duration(ints["snapshotTtlSeconds"]) * time.Second
	c.SearchDefaultLimit = ints["searchDefaultLimit"]
	c.MaxSearchLimit = ints["maxSearchLimit"]
	return c, warnings, nil
}

// configSide is one normalised tools.codeMode value: its keys (nulls removed)
// and the path used in messages.
type configSide struct {
	prefix string
	values map[string]json.RawMessage
}

// normalizeConfigValue turns true/false/null/missing/object into an object
// and type-checks every known key, so errors name the side they came from.
func normalizeConfigValue(raw json.RawMessage, prefix string, warnings *[]string) (configSide, error) {
	side := configSide{prefix: prefix, values: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0, string(raw) == "null", string(raw) == "false":
		return side, nil
	case string(raw) == "true":
		side.values["enabled"] = json.RawMessage("true")
		return side, nil
	case raw[0] != '{':
		if !json.Valid(raw) {
			return side, &ConfigError{prefix, "invalid JSON"}
		}
		return side, &ConfigError{prefix, "must be a boolean or an object"}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return side, &ConfigError{prefix, "invalid JSON: " + err.Error()}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) { // deterministic messages
		v := bytes.TrimSpace(obj[k])
		if string(v) == "null" {
			side.values[k] = v // present, so it still overrides the global value
			continue
		}
		if err := checkConfigType(k, v, prefix+"."+k, warnings); err != nil {
			return side, err
		}
		side.values[k] = v
	}
	return side, nil
}

// checkConfigType rejects a wrong JSON type for a known key and warns about
// unknown keys.
func checkConfigType(key string, v json.RawMessage, field string, warnings *[]string) error {
	switch key {
	case "enabled":
		if string(v) != "true" && string(v) != "false" {
			return &ConfigError{field, "must be a boolean"}
		}
	case "runtime", "mode":
		want := map[string]string{"runtime": runtimeQuickJSWASI, "mode": modeOnly}[key]
		var s string
		if json.Unmarshal(v, &s) != nil {
			return &ConfigError{field, "must be a string"}
		}
		if s != want {
			return &ConfigError{field, fmt.Sprintf("unsupported value %q (only %q)", s, want)}
		}
	case "languages":
		var list []json.RawMessage
		if json.Unmarshal(v, &list) != nil {
			return &ConfigError{field, "must be an array of strings"}
		}
		for i, item := range list {
			var s string
			if json.Unmarshal(item, &s) != nil {
				return &ConfigError{fmt.Sprintf("%s[%d]", field, i), "must be a string"}
			}
		}
	default:
		if isConfigIntKey(key) {
			var n json.Number
			if len(v) == 0 || v[0] == '"' || json.Unmarshal(v, &n) != nil {
				return &ConfigError{field, "must be a number"}
			}
			return nil
		}
		*warnings = append(*warnings, unknownKey(field, key, configKeys()))
	}
	return nil
}

// configKeys are the keys of tools.codeMode.
func configKeys() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, k := range []string{"enabled", "runtime", "mode", "languages"} {
			if !yield(k) {
				return
			}
		}
		for _, f := range configIntFields {
			if !yield(f.key) {
				return
			}
		}
	}
}

// unknownKey is the warning for an unknown key, naming the known key it is
// nearest to when one is near.
func unknownKey(field, key string, known iter.Seq[string]) string {
	if near := suggest.Closest(key, known); near != "" {
		return fmt.Sprintf("%s: unknown key ignored; did you mean %q?", field, near)
	}
	return field + ": unknown key ignored"
}

func isConfigIntKey(key string) bool {
	for _, f := range configIntFields {
		if f.key == key {
			return true
		}
	}
	return false
}

// resolveConfigInt applies default-then-clamp to an already type-checked number.
func resolveConfigInt(v json.RawMessage, f configIntField, field string, warnings []string) (int, []string) {
	if len(v) == 0 || string(v) == "null" {
		return f.def, warnings
	}
	x, err := json.Number(v).Float64()
	if err != nil || math.IsInf(x, 0) || x != math.Trunc(x) || x < 1 {
		return f.def, append(warnings, fmt.Sprintf("%s: %s is not a positive integer, using default %d", field, v, f.def))
	}
	switch {
	case x < float64(f.min):
		return f.min, append(warnings, fmt.Sprintf("%s: %s clamped to %d", field, v, f.min))
	case x > float64(f.max):
		return f.max, append(warnings, fmt.Sprintf("%s: %s clamped to %d", field, v, f.max))
	}
	return int(x), warnings
}

// resolveConfigLanguages keeps the known names once each; an empty result means both.
func resolveConfigLanguages(v json.RawMessage, field string, warnings []string) ([]Language, []string) {
	var names []Language
	if len(v) != 0 && string(v) != "null" {
		_ = json.Unmarshal(v, &names) // type-checked by checkConfigType
	}
	var out []Language
	for _, n := range names {
		switch {
		case n != LanguageJavaScript && n != LanguageTypeScript:
			warnings = append(warnings, fmt.Sprintf("%s: unknown language %q ignored", field, n))
		case !slices.Contains(out, n):
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []Language{LanguageJavaScript, LanguageTypeScript}
	}
	return out, warnings
}

// normalized gives a Config built in Go the treatment ResolveConfig gives
// JSON: Runtime and Mode fixed, a zero or negative number at its default,
// every number clamped, Languages filtered. New applies it to
// Options.CodeMode; the tests check that it and ResolveConfig agree.
func (c Config) normalized() Config {
	fix := func(key string, x int64) int {
		i := slices.IndexFunc(configIntFields, func(f configIntField) bool { return f.key == key })
		return configIntFields[i].clamp(x)
	}
	ceil := func(d, unit time.Duration) int64 {
		if d <= 0 {
			return 0
		}
		return int64((d + unit - 1) / unit)
	}
	out := c
	out.Runtime, out.Mode = runtimeQuickJSWASI, modeOnly
	raw, _ := json.Marshal(c.Languages)
	out.Languages, _ = resolveConfigLanguages(raw, "", nil)
	out.Timeout = time.Duration(fix("timeoutMs", ceil(c.Timeout, time.Millisecond))) * time.Millisecond
	out.MemoryLimitBytes = fix("memoryLimitBytes", int64(c.MemoryLimitBytes))
	out.MaxOutputBytes = fix("maxOutputBytes", int64(c.MaxOutputBytes))
	out.MaxSnapshotBytes = fix("maxSnapshotBytes", int64(c.MaxSnapshotBytes))
	out.MaxPendingToolCalls = fix("maxPendingToolCalls", int64(c.MaxPendingToolCalls))
	out.SnapshotTTL = time.Duration(fix("snapshotTtlSeconds", ceil(c.SnapshotTTL, time.Second))) * time.Second
	out.MaxSearchLimit = fix("maxSearchLimit", int64(c.MaxSearchLimit))
	out.SearchDefaultLimit = min(fix("searchDefaultLimit", int64(c.SearchDefaultLimit)), out.MaxSearchLimit)
	return out
}
