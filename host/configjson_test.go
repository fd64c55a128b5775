package host

import (
	"encoding/json"
)

// codeModeJSON resolves tools.codeMode as a config file holds it, for tests
// written with the file's values; JSON it refuses is the test's own bug.
func codeModeJSON(raw json.RawMessage) *Config {
	c, _, err := ResolveConfig(raw, nil)
	if err != nil {
		panic(err)
	}
	return &c
}

// swarmJSON resolves tools.swarm, as codeModeJSON does.
func swarmJSON(raw json.RawMessage) *SwarmConfig {
	c, _, err := ResolveSwarm(raw)
	if err != nil {
		panic(err)
	}
	return &c
}

// toolSearchJSON resolves tools.toolSearch, as codeModeJSON does.
func toolSearchJSON(raw json.RawMessage) *ToolSearchConfig {
	c, _, err := ResolveToolSearch(raw)
	if err != nil {
		panic(err)
	}
	return &c
}
