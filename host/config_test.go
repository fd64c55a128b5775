package host

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfig(t *testing.T) {
	want := Config{
		Enabled: false, Runtime: "quickjs-wasi", Mode: "only",
		Languages:           []Language{"javascript", "typescript"},
		Timeout:             10 * time.Second,
		MemoryLimitBytes:    67108864,
		MaxOutputBytes:      65536,
		MaxSnapshotBytes:    10485760,
		MaxPendingToolCalls: 16,
		SnapshotTTL:         900 * time.Second,
		SearchDefaultLimit:  8,
		MaxSearchLimit:      50,
	}
	if got := defaultConfig(); !reflect.DeepEqual(got, want) {
		t.Fatalf("defaultConfig() =\n%+v\nwant\n%+v", got, want)
	}
	if got := (Config{}).normalized(); !reflect.DeepEqual(got, want) {
		t.Fatalf("zero Config normalized =\n%+v\nwant\n%+v", got, want)
	}
}

func TestResolveConfigActivation(t *testing.T) {
	cases := []struct {
		name, global, agent string
		want                bool
	}{
		{"missing", "", "", false},
		{"null", "null", "", false},
		{"false", "false", "", false},
		{"true shorthand", "true", "", true},
		{"object enabled", `{"enabled":true}`, "", true},
		{"object enabled false", `{"enabled":false}`, "", false},
		{"object without enabled stays off", `{"timeoutMs":5000,"languages":["typescript"]}`, "", false},
		{"empty object", `{}`, "", false},
		{"agent true over missing", "", "true", true},
		{"agent false keeps global enabled", "true", "false", true},
		{"agent disables explicitly", "true", `{"enabled":false}`, false},
		{"agent enables over object", `{"timeoutMs":500}`, `{"enabled":true}`, true},
		{"agent null enabled wins", `{"enabled":true}`, `{"enabled":null}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, _, err := ResolveConfig(json.RawMessage(c.global), json.RawMessage(c.agent))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Enabled != c.want {
				t.Fatalf("Enabled = %v, want %v", cfg.Enabled, c.want)
			}
		})
	}
}

func TestResolveConfigMerge(t *testing.T) {
	cfg, _, err := ResolveConfig(
		json.RawMessage(`{"enabled":true,"timeoutMs":2000,"maxOutputBytes":4096}`),
		json.RawMessage(`{"timeoutMs":3000,"languages":["typescript"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Enabled || cfg.Timeout != 3*time.Second || cfg.MaxOutputBytes != 4096 ||
		!reflect.DeepEqual(cfg.Languages, []Language{"typescript"}) {
		t.Fatalf("merged = %+v", cfg)
	}
}

func TestResolveConfigNumbers(t *testing.T) {
	cases := []struct {
		field, value string
		get          func(Config) int64
		want         int64
	}{
		{"timeoutMs", "5000", func(c Config) int64 { return c.Timeout.Milliseconds() }, 5000},
		{"timeoutMs", "1", func(c Config) int64 { return c.Timeout.Milliseconds() }, 100},
		{"timeoutMs", "99", func(c Config) int64 { return c.Timeout.Milliseconds() }, 100},
		{"timeoutMs", "60001", func(c Config) int64 { return c.Timeout.Milliseconds() }, 60000},
		{"timeoutMs", "0", func(c Config) int64 { return c.Timeout.Milliseconds() }, 10000},
		{"timeoutMs", "-5", func(c Config) int64 { return c.Timeout.Milliseconds() }, 10000},
		{"timeoutMs", "1.5", func(c Config) int64 { return c.Timeout.Milliseconds() }, 10000},
		{"timeoutMs", "1e400", func(c Config) int64 { return c.Timeout.Milliseconds() }, 10000},
		{"timeoutMs", "1e20", func(c Config) int64 { return c.Timeout.Milliseconds() }, 60000},
		{"timeoutMs", "2.0", func(c Config) int64 { return c.Timeout.Milliseconds() }, 100},
		{"memoryLimitBytes", "1", func(c Config) int64 { return int64(c.MemoryLimitBytes) }, 1 << 20},
		{"memoryLimitBytes", "2147483648", func(c Config) int64 { return int64(c.MemoryLimitBytes) }, 1 << 30},
		{"memoryLimitBytes", "2000000", func(c Config) int64 { return int64(c.MemoryLimitBytes) }, 2000000},
		{"maxOutputBytes", "10", func(c Config) int64 { return int64(c.MaxOutputBytes) }, 1024},
		{"maxOutputBytes", "99999999", func(c Config) int64 { return int64(c.MaxOutputBytes) }, 10 << 20},
		{"maxSnapshotBytes", "1", func(c Config) int64 { return int64(c.MaxSnapshotBytes) }, 1024},
		{"maxSnapshotBytes", "999999999", func(c Config) int64 { return int64(c.MaxSnapshotBytes) }, 256 << 20},
		{"maxPendingToolCalls", "500", func(c Config) int64 { return int64(c.MaxPendingToolCalls) }, 128},
		{"maxPendingToolCalls", "0", func(c Config) int64 { return int64(c.MaxPendingToolCalls) }, 16},
		{"snapshotTtlSeconds", "100000", func(c Config) int64 { return int64(c.SnapshotTTL / time.Second) }, 86400},
		{"snapshotTtlSeconds", "1", func(c Config) int64 { return int64(c.SnapshotTTL / time.Second) }, 1},
		{"maxSearchLimit", "80", func(c Config) int64 { return int64(c.MaxSearchLimit) }, 50},
		{"maxSearchLimit", "3", func(c Config) int64 { return int64(c.MaxSearchLimit) }, 3},
		{"searchDefaultLimit", "0", func(c Config) int64 { return int64(c.SearchDefaultLimit) }, 8},
		{"searchDefaultLimit", "51", func(c Config) int64 { return int64(c.SearchDefaultLimit) }, 50},
	}
	for _, c := range cases {
		t.Run(c.field+"="+c.value, func(t *testing.T) {
			raw := `{"` + c.field + `":` + c.value + `}`
			cfg, warnings, err := ResolveConfig(json.RawMessage(raw), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.get(cfg); got != c.want {
				t.Fatalf("%s = %d, want %d", c.field, got, c.want)
			}
			if wantWarn := strconv.FormatInt(c.want, 10) != c.value; wantWarn != (len(warnings) == 1) {
				t.Fatalf("warnings = %q, want one: %v", warnings, wantWarn)
			}
		})
	}
}

func TestResolveConfigSearchDefaultFollowsMax(t *testing.T) {
	cfg, warnings, err := ResolveConfig(json.RawMessage(`{"maxSearchLimit":5,"searchDefaultLimit":8}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxSearchLimit != 5 || cfg.SearchDefaultLimit != 5 {
		t.Fatalf("limits = %d/%d, want 5/5", cfg.SearchDefaultLimit, cfg.MaxSearchLimit)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "searchDefaultLimit") {
		t.Fatalf("warnings = %q", warnings)
	}
	// The default of 8 is clamped too, without a warning about a value the operator never set.
	cfg, warnings, _ = ResolveConfig(json.RawMessage(`{"maxSearchLimit":2}`), nil)
	if cfg.SearchDefaultLimit != 2 || len(warnings) != 0 {
		t.Fatalf("SearchDefaultLimit = %d, warnings %q; want 2 and none", cfg.SearchDefaultLimit, warnings)
	}
}

func TestResolveConfigLanguages(t *testing.T) {
	cases := []struct {
		value string
		want  []Language
	}{
		{`[]`, []Language{"javascript", "typescript"}},
		{`null`, []Language{"javascript", "typescript"}},
		{`["typescript"]`, []Language{"typescript"}},
		{`["typescript","javascript","typescript"]`, []Language{"typescript", "javascript"}},
		{`["python"]`, []Language{"javascript", "typescript"}},
		{`["JavaScript","javascript"]`, []Language{"javascript"}},
	}
	for _, c := range cases {
		cfg, _, err := ResolveConfig(json.RawMessage(`{"languages":`+c.value+`}`), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.value, err)
		}
		if !reflect.DeepEqual(cfg.Languages, c.want) {
			t.Errorf("languages %s = %q, want %q", c.value, cfg.Languages, c.want)
		}
	}
}

func TestResolveConfigErrors(t *testing.T) {
	cases := []struct{ global, agent, want string }{
		{`"yes"`, ``, `tools.codeMode: must be a boolean or an object`},
		{`1`, ``, `tools.codeMode: must be a boolean or an object`},
		{`[true]`, ``, `tools.codeMode: must be a boolean or an object`},
		{`{"enabled":`, ``, `tools.codeMode: invalid JSON`},
		{`{"enabled":"yes"}`, ``, `tools.codeMode.enabled: must be a boolean`},
		{`{"enabled":1}`, ``, `tools.codeMode.enabled: must be a boolean`},
		{`{"languages":3}`, ``, `tools.codeMode.languages: must be an array of strings`},
		{`{"languages":"javascript"}`, ``, `tools.codeMode.languages: must be an array of strings`},
		{`{"languages":["javascript",1]}`, ``, `tools.codeMode.languages[1]: must be a string`},
		{`{"runtime":"v8"}`, ``, `tools.codeMode.runtime: unsupported value "v8" (only "quickjs-wasi")`},
		{`{"runtime":1}`, ``, `tools.codeMode.runtime: must be a string`},
		{`{"mode":"all"}`, ``, `tools.codeMode.mode: unsupported value "all" (only "only")`},
		{`{"timeoutMs":"5000"}`, ``, `tools.codeMode.timeoutMs: must be a number`},
		{`{"timeoutMs":true}`, ``, `tools.codeMode.timeoutMs: must be a number`},
		{`{"maxSearchLimit":[1]}`, ``, `tools.codeMode.maxSearchLimit: must be a number`},
		{`true`, `{"enabled":"on"}`, `agents.list[].tools.codeMode.enabled: must be a boolean`},
		{`true`, `"on"`, `agents.list[].tools.codeMode: must be a boolean or an object`},
	}
	for _, c := range cases {
		_, _, err := ResolveConfig(json.RawMessage(c.global), json.RawMessage(c.agent))
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s / %s: err = %v, want a *ConfigError", c.global, c.agent, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s / %s: err = %q, want %q", c.global, c.agent, err, c.want)
		}
	}
}

func TestResolveConfigAcceptsFixedValues(t *testing.T) {
	cfg, warnings, err := ResolveConfig(json.RawMessage(`{"enabled":true,"runtime":"quickjs-wasi","mode":"only"}`), nil)
	if err != nil || len(warnings) != 0 || cfg.Runtime != "quickjs-wasi" || cfg.Mode != "only" {
		t.Fatalf("cfg=%+v warnings=%q err=%v", cfg, warnings, err)
	}
}

func TestResolveConfigWarnsUnknownKeys(t *testing.T) {
	_, warnings, err := ResolveConfig(json.RawMessage(`{"enabled":true,"timeout":5,"zeta":1}`),
		json.RawMessage(`{"extra":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`tools.codeMode.timeout: unknown key ignored; did you mean "timeoutMs"?`,
		"tools.codeMode.zeta: unknown key ignored",
		"agents.list[].tools.codeMode.extra: unknown key ignored",
	}
	if !reflect.DeepEqual(warnings, want) {
		t.Fatalf("warnings = %q, want %q", warnings, want)
	}
}

func TestConfigNormalized(t *testing.T) {
	got := Config{
		Enabled:          true,
		Runtime:          "v8",
		Languages:        []Language{"typescript", "ruby", "typescript"},
		Timeout:          time.Hour,
		MemoryLimitBytes: -1,
		MaxOutputBytes:   10,
		SnapshotTTL:      time.Millisecond,
		MaxSearchLimit:   4,
	}.normalized()
	if !got.Enabled || got.Runtime != "quickjs-wasi" || got.Mode != "only" ||
		!reflect.DeepEqual(got.Languages, []Language{"typescript"}) ||
		got.Timeout != time.Minute || got.MemoryLimitBytes != 64<<20 || got.MaxOutputBytes != 1024 ||
		got.SnapshotTTL != time.Second || got.MaxSearchLimit != 4 || got.SearchDefaultLimit != 4 {
		t.Fatalf("normalized = %+v", got)
	}
}

// FuzzResolveConfig checks that no input panics and every accepted input
// resolves within bounds.
func FuzzResolveConfig(f *testing.F) {
	for _, s := range []string{"true", "false", "null", `{"enabled":true,"timeoutMs":1e999}`,
		`{"languages":["typescript"],"maxSearchLimit":-1}`, `{"searchDefaultLimit":3.5}`, `[`, `{"a":`} {
		f.Add([]byte(s), []byte(`{"timeoutMs":7}`))
	}
	f.Fuzz(func(t *testing.T, global, agent []byte) {
		cfg, _, err := ResolveConfig(global, agent)
		if err != nil {
			return
		}
		if cfg.Timeout < 100*time.Millisecond || cfg.Timeout > time.Minute ||
			cfg.SearchDefaultLimit < 1 || cfg.SearchDefaultLimit > cfg.MaxSearchLimit ||
			cfg.MaxSearchLimit > 50 || len(cfg.Languages) == 0 ||
			!reflect.DeepEqual(cfg, cfg.normalized()) {
			t.Fatalf("out of bounds: %+v", cfg)
		}
	})
}

// New takes typed configurations as the Resolve functions take JSON: nil is
// off, a zero field is its default, a number out of bounds is clamped, and
// a Tool Search mode that does not exist is refused.
func TestNewNormalizesTypedOptions(t *testing.T) {
	ctx := context.Background()
	rt, err := New(ctx, nil)
	if err != nil || !reflect.DeepEqual(rt.Config(), defaultConfig()) || rt.ToolSearch().Enabled || rt.swarm.Enabled {
		t.Fatalf("nil options: %v %+v", err, rt)
	}
	rt.Close(ctx)

	want, _, _ := ResolveConfig(json.RawMessage(`{"enabled":true,"timeoutMs":3600000,"memoryLimitBytes":-1,"maxSearchLimit":4}`), nil)
	rt = newRuntimeWith(t, &Options{CodeMode: &Config{Enabled: true, Timeout: time.Hour, MemoryLimitBytes: -1, MaxSearchLimit: 4},
		Swarm: &SwarmConfig{Enabled: true, MaxConcurrent: 1000, MaxAgentsPerCell: -3}})
	if !reflect.DeepEqual(rt.Config(), want) {
		t.Errorf("code mode %+v, want %+v", rt.Config(), want)
	}
	if wantSwarm, _, _ := ResolveSwarm(json.RawMessage(`{"enabled":true,"maxConcurrent":1000,"maxAgentsPerCell":-3}`)); rt.swarm != wantSwarm {
		t.Errorf("swarm %+v, want %+v", rt.swarm, wantSwarm)
	}

	wantSearch, _, _ := ResolveToolSearch(json.RawMessage(`{"enabled":true,"mode":"tools","timeoutMs":50}`))
	rt = newRuntimeWith(t, &Options{ToolSearch: &ToolSearchConfig{Enabled: true, Mode: ToolSearchTools, Bounds: Config{Timeout: 50 * time.Millisecond}}})
	if !reflect.DeepEqual(rt.ToolSearch(), wantSearch) {
		t.Errorf("tool search %+v, want %+v", rt.ToolSearch(), wantSearch)
	}

	var ce *ConfigError
	if _, err := New(ctx, &Options{ToolSearch: &ToolSearchConfig{Enabled: true, Mode: "everything"}}); !errors.As(err, &ce) || ce.Field != "tools.toolSearch.mode" {
		t.Errorf("an unknown mode: %v", err)
	}
}
