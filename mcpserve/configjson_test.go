package mcpserve

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
