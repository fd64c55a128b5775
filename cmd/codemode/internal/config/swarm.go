package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/provider"
)

// swarm checks tools.swarm with the host's resolver, as codeMode does
// tools.codeMode, so the file is refused for exactly what the host refuses;
// its provider key, which the host leaves to the command, with the
// provider's.
func (d *decoder) swarm(n *Node, field string) {
	raw := n.JSON()
	sw, warnings, err := host.ResolveSwarm(raw)
	if !d.resolved(n, field, warnings, err) {
		return
	}
	d.f.Swarm = raw
	var obj map[string]json.RawMessage
	if n.Kind != Object || json.Unmarshal(raw, &obj) != nil || obj["provider"] == nil {
		return
	}
	p, warnings, err := provider.Parse(obj["provider"], field+".provider", filepath.Dir(d.f.Path))
	if ce := (*provider.ConfigError)(nil); errors.As(err, &ce) {
		err = &host.ConfigError{Field: ce.Field, Problem: ce.Problem}
	}
	if !d.resolved(n, field+".provider", warnings, err) || p == nil {
		return
	}
	if !sw.Enabled {
		line, col := d.keyPos(field + ".provider")
		d.f.Warnings = append(d.f.Warnings, fmt.Sprintf("%s:%d:%d: %s.provider: ignored while tools.swarm is off", d.f.Path, line, col, field))
		return
	}
	d.f.Provider = p
}
