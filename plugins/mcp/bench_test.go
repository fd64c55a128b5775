package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/store"
)

// BenchmarkMCPNestedCall compares one tools/call on the Go test server over
// stdio made directly with the Go SDK client against the same call made by a
// cell as MCP.test.echo(...) through codemode. The codemode op is one nested
// call inside a cell of callsPerCell sequential calls, so it includes a
// 1/callsPerCell share of the exec itself; the difference of the two is the
// extra latency codemode adds per nested call.
func BenchmarkMCPNestedCall(b *testing.B) {
	const callsPerCell = 100
	b.Run("direct", func(b *testing.B) {
		exe, _ := os.Executable()
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), testServerEnv+"=1")
		client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}})
		cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		args := json.RawMessage(`{"text":"x","n":1}`)
		b.ResetTimer()
		for b.Loop() {
			if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: args}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, learn := range []bool{false, true} {
		name := "codemode"
		if learn {
			name = "codemode-learning"
		}
		b.Run(name, func(b *testing.B) { benchNested(b, learn, callsPerCell) })
	}
}

// benchNested is the codemode side of BenchmarkMCPNestedCall, learning the
// echo tool's result shape or not.
func benchNested(b *testing.B, learn bool, callsPerCell int) {
	o := &Options{Servers: map[string]ServerConfig{"test": subprocess(b)}}
	if learn {
		o.Shapes = &store.MemoryShapes{}
	}
	c := start(b, o)
	run := runtime(b, c, `true`)
	cell := func(n int) json.RawMessage {
		args, _ := json.Marshal(map[string]string{"code": fmt.Sprintf(`for (let i = 0; i < %d; i++) await MCP.test.echo({text: "x"}); return 1;`, n)})
		return args
	}
	full := cell(callsPerCell)
	b.ResetTimer()
	for left := b.N; left > 0; left -= callsPerCell {
		args := full
		if left < callsPerCell {
			args = cell(left)
		}
		if r := run.Exec(context.Background(), "bench", args); r.Status != host.StatusCompleted {
			b.Fatalf("%+v", r)
		}
	}
}
