package mcpserve

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

// The span tree of serve, when [Observer.Tracer] is set:
//
//	<method> [<tool>]             one per MCP request (server kind)
//	  codemode.<leg>              the exec, wait or tool_search_code leg
//	    codemode.call <tool id>   one per nested call
//	      <downstream request>    made by plugins/mcp under the call's span
//
// A request continues the W3C trace context of its _meta.traceparent, else
// of its HTTP traceparent header. Nested calls run on the host's own
// goroutines, not under the request's context, so the observer finds their
// leg by (session, exec call id) and hands their span to the tool through
// [Observer.CallContext]. A wait that brings no trace context of its own
// continues the trace of the leg that parked its run (in this process), and
// links to that leg either way.

const instrumentation = "github.com/seed11a79d2d/codemode/mcpserve"

// maxContentBytes bounds the code and arguments a span carries with
// TraceContent.
const maxContentBytes = 4 << 10

// tracing is the observer's trace state. Every map is bounded like the
// decisions; an entry dropped costs a parent link, never a leak.
type tracing struct {
	once   sync.Once
	tracer trace.Tracer // nil when traces are off

	mu     sync.Mutex
	legs   map[callKey]trace.SpanContext // (session, exec call id) -> the leg driving that run now
	parked map[callKey]parkedLeg         // (session, runId) -> the leg that parked it
	unmet  map[callKey]trace.SpanContext // (session, wait call id) -> a wait leg whose run parked elsewhere
	calls  map[callKey]trace.Span        // (session, nested call id) -> its open span
}

type parkedLeg struct {
	exec string // the call id of the exec that started the run
	span trace.SpanContext
}

// tracer is the observer's tracer, nil when traces are off.
func (o *Observer) tracer() trace.Tracer {
	if o == nil || o.Tracer == nil {
		return nil
	}
	o.tr.once.Do(func() {
		o.tr.tracer = o.Tracer.Tracer(instrumentation)
		o.tr.legs, o.tr.parked = map[callKey]trace.SpanContext{}, map[callKey]parkedLeg{}
		o.tr.unmet, o.tr.calls = map[callKey]trace.SpanContext{}, map[callKey]trace.Span{}
	})
	return o.tr.tracer
}

// bound makes room for one more entry in m, dropping arbitrary ones.
func bound[V any](m map[callKey]V, drop func(V)) {
	for k, v := range m {
		if len(m) < maxDecisions {
			return
		}
		delete(m, k)
		if drop != nil {
			drop(v)
		}
	}
}

// cut bounds content for an attribute.
func cut(b []byte) string {
	if len(b) > maxContentBytes {
		b = b[:maxContentBytes]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

var propagator = propagation.TraceContext{}

// incoming is ctx with the trace context a request brings: its
// _meta.traceparent (and tracestate), else its HTTP headers'.
func incoming(ctx context.Context, req sdk.Request) context.Context {
	if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
		if m := p.GetMeta(); m != nil {
			c := propagation.MapCarrier{}
			for _, k := range propagator.Fields() {
				if v, ok := m[k].(string); ok {
					c[k] = v
				}
			}
			if c["traceparent"] != "" {
				return propagator.Extract(ctx, c)
			}
		}
	}
	if x := req.GetExtra(); x != nil && x.Header != nil {
		return propagator.Extract(ctx, propagation.HeaderCarrier(x.Header))
	}
	return ctx
}

// traceRequests is the receiving middleware of request spans.
func (s *service) traceRequests(tracer trace.Tracer) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if strings.HasPrefix(method, "notifications/") {
				return next(ctx, method, req)
			}
			ctx = incoming(ctx, req)
			name, attrs := method, []attribute.KeyValue{attribute.String("mcp.method.name", method)}
			var links []trace.Link
			if ct, ok := req.(*sdk.CallToolRequest); ok && ct.Params != nil {
				name += " " + ct.Params.Name
				attrs = append(attrs, attribute.String("gen_ai.tool.name", ct.Params.Name))
				if ct.Params.Name == "wait" {
					if p, ok := s.parkedLeg(ct); ok {
						links = append(links, trace.Link{SpanContext: p.span})
						if !trace.SpanContextFromContext(ctx).IsValid() {
							ctx = trace.ContextWithRemoteSpanContext(ctx, p.span)
						}
					}
				}
			}
			ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...), trace.WithLinks(links...))
			defer span.End()
			res, err := next(ctx, method, req)
			if err != nil {
				span.SetStatus(codes.Error, "request failed")
			} else if r, ok := res.(*sdk.CallToolResult); ok && r.IsError {
				span.SetStatus(codes.Error, "tool result is an error")
			}
			return res, err
		}
	}
}

// parkedLeg is the leg that parked the run a wait names, in the wait's
// session.
func (s *service) parkedLeg(req *sdk.CallToolRequest) (parkedLeg, bool) {
	var in struct {
		RunID string `json:"runId"`
	}
	if json.Unmarshal(req.Params.Arguments, &in) != nil || in.RunID == "" {
		return parkedLeg{}, false
	}
	sess := s.session(req.Session, principal(req))
	o := s.opts.Observer
	o.tr.mu.Lock()
	defer o.tr.mu.Unlock()
	p, ok := o.tr.parked[callKey{sess.id, boundID(in.RunID)}]
	return p, ok
}

// startLeg opens the leg's span under ctx (the request's) and registers it
// as the parent of its run's nested calls.
func (l *leg) startLeg(ctx context.Context, tracer trace.Tracer) context.Context {
	o := l.s.opts.Observer
	attrs := []attribute.KeyValue{attribute.String("mcp.session.id", l.sess.id), attribute.String("codemode.call.id", l.callID)}
	if l.runID != "" {
		attrs = append(attrs, attribute.String("codemode.run.id", l.runID))
	}
	if o.Engine != "" {
		attrs = append(attrs, attribute.String("codemode.engine", o.Engine))
	}
	if o.TraceContent && len(l.code) > 0 {
		attrs = append(attrs, attribute.String("codemode.cell.code", cut(l.code)))
	}
	ctx, l.span = tracer.Start(ctx, "codemode."+l.kind, trace.WithAttributes(attrs...))
	sc := l.span.SpanContext()
	o.tr.mu.Lock()
	defer o.tr.mu.Unlock()
	switch l.kind {
	case "wait":
		if p, ok := o.tr.parked[callKey{l.sess.id, l.runID}]; ok {
			l.exec = p.exec
			l.span.AddLink(trace.Link{SpanContext: p.span})
		} else { // parked on another replica: adopted by its first call (parent)
			bound(o.tr.unmet, nil)
			o.tr.unmet[callKey{l.sess.id, l.callID}] = sc
			return ctx
		}
	default:
		l.exec = l.callID
	}
	bound(o.tr.legs, nil)
	o.tr.legs[callKey{l.sess.id, l.exec}] = sc
	return ctx
}

// endLeg closes the leg's span with its result; a run that ended forgets
// its legs.
func (l *leg) endLeg(r host.Result, runID string) {
	if l.span == nil {
		return
	}
	o := l.s.opts.Observer
	attrs := []attribute.KeyValue{attribute.String("codemode.cell.status", r.Status.String()),
		attribute.Int64("codemode.nested_calls", r.Telemetry.CallCount)}
	if runID != "" {
		attrs = append(attrs, attribute.String("codemode.run.id", runID))
	}
	if r.Status == host.StatusFailed {
		attrs = append(attrs, attribute.String("codemode.error.code", string(r.Code)), attribute.String("codemode.error.reason", r.Reason.String()))
		l.span.SetStatus(codes.Error, string(r.Code))
	}
	l.span.SetAttributes(attrs...)
	l.span.End()
	o.tr.mu.Lock()
	defer o.tr.mu.Unlock()
	delete(o.tr.unmet, callKey{l.sess.id, l.callID})
	if l.kind == "wait" && runID != "" {
		delete(o.tr.parked, callKey{l.sess.id, runID})
	}
	switch {
	case r.Status == host.StatusWaiting && runID != "" && l.exec != "":
		bound(o.tr.parked, nil)
		o.tr.parked[callKey{l.sess.id, runID}] = parkedLeg{l.exec, l.span.SpanContext()}
	case r.Status != host.StatusWaiting && l.exec != "":
		delete(o.tr.legs, callKey{l.sess.id, l.exec})
	}
}

// parent is the span context of the leg driving the run of a nested call:
// its exec's, or a wait's that resumed it. A wait whose run parked on
// another replica does not know its exec's call id: the first call of a
// session that has exactly one such wait is taken to be its. o.tr.mu is
// held.
func (o *Observer) parent(session, exec string) (trace.SpanContext, bool) {
	k := callKey{session, exec}
	if sc, ok := o.tr.legs[k]; ok {
		return sc, true
	}
	var found callKey
	n := 0
	for w := range o.tr.unmet {
		if w.session == session {
			found, n = w, n+1
		}
	}
	if n != 1 {
		return trace.SpanContext{}, false
	}
	sc := o.tr.unmet[found]
	delete(o.tr.unmet, found)
	bound(o.tr.legs, nil)
	o.tr.legs[k] = sc
	return sc, true
}

// startCall opens a nested call's span as the host is about to decide it.
func (o *Observer) startCall(ctx context.Context, e tool.Event) {
	tracer := o.tracer()
	if tracer == nil || e.ToolKind != tool.KindNested {
		return
	}
	attrs := []attribute.KeyValue{attribute.String("codemode.call.id", e.CallID), attribute.String("codemode.tool.id", e.ToolID),
		attribute.String("gen_ai.tool.name", e.ToolName)}
	if e.MCPMethod != "" {
		attrs = append(attrs, attribute.String("mcp.method.name", e.MCPMethod))
	}
	if o.TraceContent {
		attrs = append(attrs, attribute.String("codemode.call.arguments", cut(e.Input)))
	}
	k := callKey{e.Scope.SessionID, e.CallID}
	o.tr.mu.Lock()
	defer o.tr.mu.Unlock()
	if _, open := o.tr.calls[k]; open {
		return
	}
	sc, ok := o.parent(e.Scope.SessionID, e.ParentCallID)
	if !ok {
		return
	}
	_, span := tracer.Start(trace.ContextWithSpanContext(ctx, sc), "codemode.call "+e.ToolID, trace.WithAttributes(attrs...))
	bound(o.tr.calls, func(s trace.Span) { s.SetAttributes(attribute.Bool("codemode.call.abandoned", true)); s.End() })
	o.tr.calls[k] = span
}

// approval notes a person's (or the approval policy's) verdict on the
// call's span.
func (o *Observer) approval(e tool.Event, decision string) {
	if o.tracer() == nil {
		return
	}
	o.tr.mu.Lock()
	span := o.tr.calls[callKey{e.Scope.SessionID, e.CallID}]
	o.tr.mu.Unlock()
	if span != nil {
		span.SetAttributes(attribute.String("codemode.call.approval", decision))
	}
}

// endCall closes a finished nested call's span at the time it ended.
func (o *Observer) endCall(session string, c host.NestedCall, server, decision, outcome string) {
	if o.tracer() == nil {
		return
	}
	k := callKey{session, c.ID}
	o.tr.mu.Lock()
	span := o.tr.calls[k]
	delete(o.tr.calls, k)
	o.tr.mu.Unlock()
	if span == nil {
		return
	}
	span.SetAttributes(attribute.String("codemode.tool.server", server), attribute.String("codemode.call.decision", decision),
		attribute.String("codemode.call.outcome", outcome))
	if c.Error != "" {
		msg := "nested call failed"
		if o.TraceContent {
			msg = cut([]byte(c.Error))
		}
		span.SetStatus(codes.Error, msg)
	}
	span.End(trace.WithTimestamp(c.Start.Add(c.Duration)))
}

// CallContext is ctx with the span of the nested call, for the tool that
// runs it: its downstream requests become the call's children and carry
// its trace context on. Pass it to plugins/mcp's Options.CallContext. A
// direct call already runs under its request's span.
func (o *Observer) CallContext(ctx context.Context, call tool.Call) context.Context {
	if o.tracer() == nil || trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	o.tr.mu.Lock()
	span := o.tr.calls[callKey{call.Scope.SessionID, call.ID}]
	o.tr.mu.Unlock()
	if span == nil {
		return ctx
	}
	return trace.ContextWithSpan(ctx, span)
}

// traceAttrs adds the leg's trace id to a log line's attributes, when
// traces are on: the line and the trace can be found from each other.
func (l *leg) traceAttrs(attrs []any) []any {
	if l.span == nil {
		return attrs
	}
	return append(attrs, "trace_id", l.span.SpanContext().TraceID().String())
}

// context is a leg's request context under its span, for the run.
func (l *leg) context(ctx context.Context) context.Context {
	if l == nil || l.ctx == nil {
		return ctx
	}
	return l.ctx
}
