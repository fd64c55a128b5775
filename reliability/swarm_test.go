package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/internal/hosttest"
)

// swarmConfig is the tools.swarm of the corpus cells marked "swarm: yes":
// small bounds, so that floods meet them quickly.
const swarmConfig = `{"enabled": true, "maxConcurrent": 4, "maxAgentsPerCell": 32}`

// newSwarmRuntime is the corpus's runtime (tools, engine, policy, hooks)
// with tools.swarm on and corpusAgent running the children. The caller
// closes it: no cleanup may keep it, and its engine, past the corpus's heap
// check.
//
// eng is the corpus's other runtime's engine: one engine for both, so that
// a caller-supplied one (wasmtime's, closed only after the test) does not
// count twice in the heap check.
func newSwarmRuntime(t testing.TB, w *world, eng abi.Engine, config string) *host.Runtime {
	t.Helper()
	rt, err := host.New(context.Background(), &host.Options{Tools: w.tools, Engine: eng, Policy: &corpusPolicy, Hooks: corpusHooks,
		CodeMode: hosttest.CodeMode(json.RawMessage(config)), Swarm: hosttest.Swarm(json.RawMessage(swarmConfig)), Agents: host.AgentFunc(corpusAgent)})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// corpusAgent answers children by their prompt: "slow" until the run ends,
// "huge" with 300 KiB, "deep" with JSON nested 20,000 levels, "json:X" with
// X; anything else with its length.
func corpusAgent(ctx context.Context, req host.AgentRequest) (string, error) {
	switch p := req.Prompt; {
	case p == "slow":
		<-ctx.Done()
		return "", ctx.Err()
	case p == "huge":
		return strings.Repeat("a", 300<<10), nil
	case p == "deep":
		return strings.Repeat("[", 20000) + strings.Repeat("]", 20000), nil
	case strings.HasPrefix(p, "json:"):
		return strings.TrimPrefix(p, "json:"), nil
	default:
		return fmt.Sprintf("ok %d", len(p)), nil
	}
}
