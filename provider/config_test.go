package provider

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const field = "tools.swarm.provider"

func TestParse(t *testing.T) {
	c, warnings, err := Parse([]byte(`{"kind": "anthropic", "model": "m", "models": {"rater": "small"}, "keyFile": "k.txt",
		"timeoutMs": 5000, "maxTokens": 0, "maxRetries": 99, "budget": {"cellTokens": 1000, "sessionCost": 2.5}, "price": {"input": 3, "output": 15}, "temperature": 1}`), field, "/etc/cm")
	want := &Config{Kind: Anthropic, URL: "https://api.anthropic.com/v1", Model: "m", Models: map[string]string{"rater": "small"}, KeyFile: "/etc/cm/k.txt",
		Timeout: 5 * time.Second, MaxTokens: 4096, MaxRetries: 8, Budget: Budget{CellTokens: 1000, SessionCost: 2.5}, Price: &Price{3, 15}}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("%+v %v", c, err)
	}
	wantW := []string{
		"tools.swarm.provider.maxTokens: 0 is not a whole number of at least 1, using default 4096",
		"tools.swarm.provider.maxRetries: 99 clamped to 8",
		"tools.swarm.provider.temperature: unknown key ignored",
	}
	if !reflect.DeepEqual(warnings, wantW) {
		t.Fatalf("%q", warnings)
	}
	for _, raw := range []string{``, `null`} {
		if c, w, err := Parse([]byte(raw), field, ""); c != nil || w != nil || err != nil {
			t.Errorf("%q: %v %v %v", raw, c, w, err)
		}
	}
	// An Ollama: plain http to loopback, no key.
	if c, _, err := Parse([]byte(`{"kind": "openai", "url": "http://127.0.0.1:11434/v1", "model": "llama3.2"}`), field, ""); err != nil || c.Timeout != 2*time.Minute || c.MaxRetries != 2 {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestParseErrors(t *testing.T) {
	for raw, want := range map[string]string{
		`"openai"`:                         "tools.swarm.provider: must be an object",
		`{"model": "m"}`:                   `tools.swarm.provider.kind: must be "openai" or "anthropic"`,
		`{"kind": "gemini", "model": "m"}`: `tools.swarm.provider.kind: must be "openai" or "anthropic"`,
		`{"kind": 1, "model": "m"}`:        "tools.swarm.provider.kind: must be a string",
		`{"kind": "openai"}`:               "tools.swarm.provider.model: is required",
		`{"kind": "openai", "model": "m", "keyFile": "f", "keyEnv": "E"}`:              "tools.swarm.provider: has both keyFile and keyEnv; give one",
		`{"kind": "openai", "model": "m", "timeoutMs": "5"}`:                           "tools.swarm.provider.timeoutMs: must be a number",
		`{"kind": "openai", "model": "m", "models": []}`:                               "tools.swarm.provider.models: must be an object",
		`{"kind": "openai", "model": "m", "models": {"a": 1}}`:                         "tools.swarm.provider.models.a: must be a string",
		`{"kind": "openai", "model": "m", "models": {"a": ""}}`:                        "tools.swarm.provider.models.a: must be a model name",
		`{"kind": "openai", "model": "m", "budget": {"cellTokens": -1}}`:               "tools.swarm.provider.budget.cellTokens: must be a number from 0",
		`{"kind": "openai", "model": "m", "budget": {"cellCost": 1}}`:                  "tools.swarm.provider.budget: has a cost budget but tools.swarm.provider.price is not set",
		`{"kind": "openai", "model": "m", "price": {"input": "3"}}`:                    "tools.swarm.provider.price.input: must be a number",
		`{"kind": "openai", "model": "m", "url": "ftp://x/v1"}`:                        "tools.swarm.provider.url: must be an http:// or https:// URL",
		`{"kind": "openai", "model": "m", "url": "https://u:p@x/v1"}`:                  "tools.swarm.provider.url: must not carry credentials",
		`{"kind": "openai", "model": "m", "url": "https://x/v1?key=k"}`:                "tools.swarm.provider.url: must not carry credentials",
		`{"kind": "openai", "model": "m", "url": "http://10.0.0.2/v1", "keyEnv": "K"}`: "tools.swarm.provider.url: is plain http to a host that is not loopback",
	} {
		_, _, err := Parse([]byte(raw), field, "")
		var ce *ConfigError
		if err == nil || !strings.HasPrefix(err.Error(), want) || !asConfigError(err, &ce) {
			t.Errorf("%s: %v, want %s", raw, err, want)
		}
	}
	// Plain http without a key may go anywhere: a vLLM on the LAN.
	if _, _, err := Parse([]byte(`{"kind": "openai", "model": "m", "url": "http://10.0.0.2:8000/v1"}`), field, ""); err != nil {
		t.Fatal(err)
	}
}

func asConfigError(err error, ce **ConfigError) bool {
	e, ok := err.(*ConfigError)
	*ce = e
	return ok
}

func TestReadKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	env := map[string]string{"K": testKey + "\n", "EMPTY": ""}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	for _, c := range []struct {
		cfg  Config
		want string // the key, or the error's start
	}{
		{Config{}, ""},
		{Config{KeyFile: write("k", testKey+"\r\n")}, testKey},
		{Config{KeyEnv: "K"}, testKey},
		{Config{KeyEnv: "MISSING"}, "tools.swarm.provider.keyEnv: $MISSING is not set"},
		{Config{KeyEnv: "EMPTY"}, "tools.swarm.provider.keyEnv $EMPTY is empty"},
		{Config{KeyFile: filepath.Join(dir, "none")}, "tools.swarm.provider.keyFile: cannot read " + filepath.Join(dir, "none") + ": no such file or directory"},
		{Config{KeyFile: write("two", "a\nb\n")}, "tools.swarm.provider.keyFile " + filepath.Join(dir, "two") + " holds control characters"},
	} {
		key, err := c.cfg.ReadKey(lookup)
		got := key
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, c.want) || (err != nil && strings.Contains(got, testKey)) {
			t.Errorf("%+v: %q", c.cfg, got)
		}
	}
}
