package bench

import "testing"

// TestComparisonsAreWellFormed keeps the tables consistent: every
// comparison names a Go metric and a peer that exist, keys are unique, and a
// size comparison is of a metric that reports a size.
func TestComparisonsAreWellFormed(t *testing.T) {
	peers := map[string]bool{}
	for _, p := range Peers {
		peers[p.Name] = true
	}
	keys := map[string]bool{}
	for _, c := range Comparisons {
		m, ok := Lookup(c.Metric)
		if !ok {
			t.Errorf("%s: no Go metric %s", c.Key(), c.Metric)
		}
		if !peers[c.Peer] {
			t.Errorf("%s: no peer %s", c.Key(), c.Peer)
		}
		if c.Bytes && m.BytesUnit == "" {
			t.Errorf("%s: %s reports no size", c.Key(), c.Metric)
		}
		if keys[c.Key()] {
			t.Errorf("%s: twice", c.Key())
		}
		keys[c.Key()] = true
	}
}
