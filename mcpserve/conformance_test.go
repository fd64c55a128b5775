package mcpserve

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestConformance runs the official MCP conformance suite's server scenarios
// against the HTTP server. Scenarios that need features a Code Mode server
// does not have (its only tools are exec, wait and direct-only tools; no
// resources, prompts, logging, completions, sampling or elicitation) are in
// testdata/conformance-baseline.yml with a reason each; the suite fails on a
// listed scenario that passes as well as on an unlisted one that fails.
func TestConformance(t *testing.T) {
	node, modules := peers(t)
	f := newFixture(t, `true`)
	url := f.http(t)
	baseline, _ := filepath.Abs("testdata/conformance-baseline.yml")
	cmd := exec.Command(node, filepath.Join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js"),
		"server", "--url", url, "--expected-failures", baseline, "-o", t.TempDir())
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("conformance suite: %v\n%s", err, out.String())
	}
	t.Log(out.String())
}
