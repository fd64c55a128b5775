// Package hosttest holds what the tests of several packages need of host:
// one copy, where each package had its own.
package hosttest

import (
	"encoding/json"

	"github.com/seed11a79d2d/codemode/host"
)

// CodeMode resolves tools.codeMode as a config file holds it, for tests
// written with the file's values; JSON it refuses is the test's own bug.
func CodeMode(raw json.RawMessage) *host.Config {
	c, _, err := host.ResolveConfig(raw, nil)
	if err != nil {
		panic(err)
	}
	return &c
}

// ToolSearch resolves tools.toolSearch, as CodeMode does.
func ToolSearch(raw json.RawMessage) *host.ToolSearchConfig {
	c, _, err := host.ResolveToolSearch(raw)
	if err != nil {
		panic(err)
	}
	return &c
}

// Swarm resolves tools.swarm, as CodeMode does.
func Swarm(raw json.RawMessage) *host.SwarmConfig {
	c, _, err := host.ResolveSwarm(raw)
	if err != nil {
		panic(err)
	}
	return &c
}
