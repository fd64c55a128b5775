package mcp

import (
	"context"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/tool"
)

// Traces of downstream requests. A request made under a span (a cell's
// call, once [Options].CallContext has given its context the call's span)
// gets a client span of its own, and carries its trace context to the
// server: as a traceparent header over HTTP, as _meta.traceparent over
// stdio and in-process transports. Requests of no one's (initialize,
// tools/list on connect) are not traced.

const instrumentation = "github.com/seed11a79d2d/codemode/plugins/mcp"

var propagator = propagation.TraceContext{}

// callContext is ctx as Options.CallContext gives it to a call.
func (c *Client) callContext(ctx context.Context, call tool.Call) context.Context {
	if c.callCtx == nil {
		return ctx
	}
	return c.callCtx(ctx, call)
}

// spans are a server's downstream spans in flight, so that a log message
// it sends during one call becomes that call's event.
type spans struct {
	mu  sync.Mutex
	set map[trace.Span]bool
}

func (f *spans) add(s trace.Span) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.set == nil {
		f.set = map[trace.Span]bool{}
	}
	f.set[s] = true
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.set, s)
	}
}

// only is the one span in flight, or nil with none or several: a log
// message belongs to no call it could not be told apart from.
func (f *spans) only() trace.Span {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.set) != 1 {
		return nil
	}
	for s := range f.set {
		return s
	}
	return nil
}

// traceRequests is the sending middleware of downstream spans.
func (s *server) traceRequests(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if strings.HasPrefix(method, "notifications/") || !trace.SpanContextFromContext(ctx).IsValid() {
			return next(ctx, method, req)
		}
		name, attrs := method, []attribute.KeyValue{attribute.String("mcp.method.name", method), attribute.String("codemode.mcp.server", s.name)}
		p := req.GetParams()
		if p != nil && reflect.ValueOf(p).IsNil() {
			p = nil
		}
		if ct, ok := p.(*sdk.CallToolParams); ok {
			name += " " + ct.Name
			attrs = append(attrs, attribute.String("gen_ai.tool.name", ct.Name))
		}
		ctx, span := s.c.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		defer span.End()
		defer s.inFlight.add(span)()
		if s.cfg.URL == "" && p != nil { // HTTP carries it in a header (httpTransport)
			c := propagation.MapCarrier{}
			propagator.Inject(ctx, c)
			meta := maps.Clone(p.GetMeta())
			if meta == nil {
				meta = map[string]any{}
			}
			for k, v := range c {
				meta[k] = v
			}
			p.SetMeta(meta)
		}
		res, err := next(ctx, method, req)
		if err != nil {
			span.SetStatus(codes.Error, "request failed")
		} else if r, ok := res.(*sdk.CallToolResult); ok && r.IsError {
			span.SetStatus(codes.Error, "tool result is an error")
		}
		return res, err
	}
}

// traceHeader is r with the traceparent of its context's span, if any.
func traceHeader(r *http.Request, cloned bool) *http.Request {
	if !trace.SpanContextFromContext(r.Context()).IsValid() {
		return r
	}
	if !cloned {
		r = r.Clone(r.Context())
	}
	propagator.Inject(r.Context(), propagation.HeaderCarrier(r.Header))
	return r
}
