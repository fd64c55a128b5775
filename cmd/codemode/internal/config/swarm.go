package config

import "github.com/seed11a79d2d/codemode/host"

// swarm checks tools.swarm with the host's resolver, as codeMode does
// tools.codeMode, so the file is refused for exactly what the host refuses.
func (d *decoder) swarm(n *Node, field string) {
	raw := n.JSON()
	_, warnings, err := host.ResolveSwarm(raw)
	if d.resolved(n, field, warnings, err) {
		d.f.Swarm = raw
	}
}
