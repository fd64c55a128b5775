package config

import (
	"strings"
	"testing"
)

func TestParseSwarm(t *testing.T) {
	f, err := Parse("c.json5", []byte(`{ tools: { codeMode: true, swarm: { enabled: true, maxConcurrent: 100, fanOut: 2 } } }`))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Swarm) != `{"enabled":true,"maxConcurrent":100,"fanOut":2}` {
		t.Errorf("Swarm = %s", f.Swarm)
	}
	want := "c.json5:1:72: tools.swarm.fanOut: unknown key ignored\nc.json5:1:52: tools.swarm.maxConcurrent: 100 clamped to 64"
	if got := strings.Join(f.Warnings, "\n"); got != want {
		t.Errorf("warnings:\n%s\nwant\n%s", got, want)
	}
	if f, err := Parse("c.json5", []byte(`{ tools: { codeMode: true } }`)); err != nil || f.Swarm != nil {
		t.Errorf("absent: %s %v", f.Swarm, err)
	}
	for src, want := range map[string]string{
		`{ tools: { swarm: "on" } }`:                      "c.json5:1:19: tools.swarm: must be a boolean or an object",
		`{ tools: { swarm: { enabled: 1 } } }`:            "c.json5:1:30: tools.swarm.enabled: must be a boolean",
		`{ tools: { swarm: { maxAgentsPerCell: "9" } } }`: `c.json5:1:39: tools.swarm.maxAgentsPerCell: must be a number`,
	} {
		if _, err := Parse("c.json5", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
}

func TestParseSwarmProvider(t *testing.T) {
	src := `{ tools: { swarm: { enabled: true, provider: { kind: "openai", url: "http://127.0.0.1:11434/v1", model: "llama3.2",
		keyFile: "provider.key", maxRetries: 20, topP: 1 } } } }`
	f, err := Parse("/etc/cm/c.json5", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Provider; p == nil || p.Kind != "openai" || p.Model != "llama3.2" || p.KeyFile != "/etc/cm/provider.key" || p.MaxRetries != 8 {
		t.Fatalf("%+v", f.Provider)
	}
	want := "/etc/cm/c.json5:2:28: tools.swarm.provider.maxRetries: 20 clamped to 8\n/etc/cm/c.json5:2:44: tools.swarm.provider.topP: unknown key ignored"
	if got := strings.Join(f.Warnings, "\n"); got != want {
		t.Errorf("warnings:\n%s\nwant\n%s", got, want)
	}
	f, err = Parse("c.json5", []byte(`{ tools: { swarm: { provider: { kind: "anthropic", model: "m" } } } }`))
	if err != nil || f.Provider != nil || len(f.Warnings) != 1 || !strings.HasSuffix(f.Warnings[0], "tools.swarm.provider: ignored while tools.swarm is off") {
		t.Fatalf("swarm off: %+v %q %v", f.Provider, f.Warnings, err)
	}
	for src, want := range map[string]string{
		`{ tools: { swarm: { enabled: true, provider: "openai" } } }`:                                                "c.json5:1:46: tools.swarm.provider: must be an object",
		`{ tools: { swarm: { enabled: true, provider: { kind: "gemini", model: "m" } } } }`:                          `c.json5:1:54: tools.swarm.provider.kind: must be "openai" or "anthropic"`,
		`{ tools: { swarm: { enabled: true, provider: { kind: "openai", model: "m", timeoutMs: "1" } } } }`:          "c.json5:1:87: tools.swarm.provider.timeoutMs: must be a number",
		`{ tools: { swarm: { enabled: true, provider: { kind: "openai", model: "m", budget: { cellCost: 1 } } } } }`: "c.json5:1:84: tools.swarm.provider.budget: has a cost budget but tools.swarm.provider.price is not set",
	} {
		if _, err := Parse("c.json5", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", src, err, want)
		}
	}
}
