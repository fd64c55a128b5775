package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// testServerEnv makes the test binary run newTestServer over stdio instead
// of the tests, so restart tests have a real process to kill.
const testServerEnv = "CODEMODE_MCP_TEST_SERVER"

// testModeEnv picks how the stdio test server misbehaves: "banner" writes
// lines that are not JSON-RPC on stdout before serving (noiseLines of
// them), "fail" writes failMessage on stderr and exits 1 at start, and
// "linger" does not exit when its stdin is closed, and "flood" writes some
// 60 MB on stderr while it serves.
const testModeEnv = "CODEMODE_MCP_TEST_MODE"

const (
	noiseLines  = 25
	failMessage = "fatal: no accessible directory"
)

func TestMain(m *testing.M) {
	if os.Getenv(testServerEnv) == "1" {
		switch os.Getenv(testModeEnv) {
		case "banner":
			fmt.Println("Test MCP server v1 starting")
			fmt.Println(`{"level":"info","msg":"a JSON log line is not JSON-RPC"}`)
			fmt.Println("[INFO] " + strings.Repeat("x", 1000))
			for i := 3; i < noiseLines; i++ {
				fmt.Printf("noise %d\n", i)
			}
		case "flood": // stderr without end while it serves
			go func() {
				line := strings.Repeat("e", 3000) + "\n"
				for range 20000 {
					os.Stderr.WriteString(line)
				}
				os.Stderr.WriteString(strings.Repeat("n", 1<<20))
			}()
		case "fail":
			fmt.Fprintln(os.Stderr, "starting up")
			fmt.Fprintln(os.Stderr, failMessage)
			os.Exit(1)
		}
		if err := newTestServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if os.Getenv(testModeEnv) == "linger" {
			time.Sleep(time.Hour)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func text(s string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: s}} }

// newTestServer is a Go MCP server with one tool per behaviour under test.
// Its page size is 2, so listing its tools takes several pages.
func newTestServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ServerOptions{PageSize: 2})
	add := func(name, schema string, h sdk.ToolHandler) {
		s.AddTool(&sdk.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: json.RawMessage(schema)}, h)
	}
	obj := `{"type":"object"}`
	add("echo", `{"type":"object","properties":{"text":{"type":"string","description":"What to echo"},"n":{"type":"number","default":1}},"required":["text"]}`,
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			raw := r.Params.Arguments
			return &sdk.CallToolResult{Content: text("args: " + string(raw)), StructuredContent: raw}, nil
		})
	add("fail", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text("it failed"), IsError: true}, nil
	})
	add("rpc_error", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad things"}
	})
	add("slow", `{"type":"object","properties":{"ms":{"type":"number"}}}`,
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ MS int }
			json.Unmarshal(r.Params.Arguments, &in)
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
				return &sdk.CallToolResult{Content: text("slept"), StructuredContent: map[string]int{"slept": in.MS}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	add("pid", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text("pid"), StructuredContent: map[string]int{"pid": os.Getpid()}}, nil
	})
	add("environ", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		b, _ := json.Marshal(map[string][]string{"environ": os.Environ()})
		return &sdk.CallToolResult{Content: text(string(b))}, nil
	})
	add("die", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	add("broken", `{"type":"object","properties":"oops"}`, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text("unreachable")}, nil
	})
	add("picture", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}}}, nil
	})
	add("add_tool", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		add("added", obj, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: text("new")}, nil
		})
		return &sdk.CallToolResult{Content: text("added")}, nil
	})
	s.AddResource(&sdk.Resource{URI: "memo://one", Name: "one", MIMEType: "text/plain"},
		func(ctx context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: "hello"}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "brief", Arguments: []*sdk.PromptArgument{{Name: "topic", Required: true}}},
		func(ctx context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Brief on " + r.Params.Arguments["topic"]}}}}, nil
		})
	return s
}

// inProcess connects a fresh test server over the SDK's in-memory transport.
func inProcess(t testing.TB) ServerConfig {
	ct, st := sdk.NewInMemoryTransports()
	ss, err := newTestServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ServerConfig{Transport: ct, DirectOnly: []string{"picture"}}
}

// subprocess runs the test server as a child process over stdio.
func subprocess(t testing.TB) ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ServerConfig{Command: exe, Env: map[string]string{testServerEnv: "1"}}
}

// misbehaving is subprocess in one of the modes of testModeEnv.
func misbehaving(t testing.TB, mode string) ServerConfig {
	cfg := subprocess(t)
	cfg.Env[testModeEnv] = mode
	return cfg
}
