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
