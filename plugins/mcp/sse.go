package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sseTransport is the SDK's legacy HTTP+SSE client transport, whose event
// stream is a GET made with the context passed to Connect and so ends with
// it. connect passes a context that ends when the handshake does; this one
// bounds only the start of the stream (until the server names its message
// endpoint), which then lasts until the connection is closed.
type sseTransport struct{ *sdk.SSEClientTransport }

func (t sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	// Not a child of ctx: after Connect returns, nothing cancels it (the
	// stream ends when the connection closes its body), and a cancel that is
	// never called holds nothing.
	stream, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.SSEClientTransport.Connect(stream)
	if !stop() { // ctx ended first: the stream is cancelled
		if err == nil {
			conn.Close()
		}
		return nil, fmt.Errorf("open the event stream: %w", ctx.Err())
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return conn, nil
}
