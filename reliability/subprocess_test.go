package reliability

//lint:file-ignore SA1019 a downstream server that logs is part of what a real server does.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// helperEnv makes the test binary serve faultServer over stdio instead of
// running the tests, so a fault test has a real process to kill.
const helperEnv = "CODEMODE_RELIABILITY_MCP_SERVER"

// subprocessMode returns what the test binary runs instead of the tests when
// a fault test starts it as a helper process; nil means run the tests.
func subprocessMode() func() int {
	if os.Getenv(helperEnv) != "1" {
		return nil
	}
	return func() int {
		if err := faultServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
}

// faultServer is a downstream MCP server with misbehaving tools: die exits
// mid-call, hang never answers, flood sends 2,000 notifications first.
func faultServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "faulty", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	text := func(s string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: s}} }
	s.AddTool(&sdk.Tool{Name: "ok", InputSchema: obj}, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: text("fine"), StructuredContent: map[string]int{"pid": os.Getpid()}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "die", InputSchema: obj}, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(&sdk.Tool{Name: "hang", InputSchema: obj}, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s.AddTool(&sdk.Tool{Name: "flood", InputSchema: obj}, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		for i := range 1000 {
			r.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Data: fmt.Sprintf("line %d", i)})
			r.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: "t", Progress: float64(i)})
		}
		return &sdk.CallToolResult{Content: text("flooded")}, nil
	})
	return s
}
