package reliability

import (
	"encoding/json"

	"github.com/seed11a79d2d/codemode/host"
)

// codeModeJSON resolves tools.codeMode as a config file holds it, for tests
// written with the file's values; JSON it refuses is the test's own bug.
func codeModeJSON(raw json.RawMessage) *host.Config {
	c, _, err := host.ResolveConfig(raw, nil)
	if err != nil {
		panic(err)
	}
	return &c
}

// toolSearchJSON resolves tools.toolSearch, as codeModeJSON does.
func toolSearchJSON(raw json.RawMessage) *host.ToolSearchConfig {
	c, _, err := host.ResolveToolSearch(raw)
	if err != nil {
		panic(err)
	}
	return &c
}

// swarmJSON resolves tools.swarm, as codeModeJSON does.
func swarmJSON(raw json.RawMessage) *host.SwarmConfig {
	c, _, err := host.ResolveSwarm(raw)
	if err != nil {
		panic(err)
	}
	return &c
}
