package ops

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
)

// Traces are off unless the OTEL_* variables configure an OTLP exporter,
// and a variable asking for what is not supported is an error that says
// what is.
func TestNewTracerProviderFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		on   bool
		fail string
	}{
		{env: nil},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}},
		{env: map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, on: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, on: true},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, on: true},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, fail: `OTEL_TRACES_EXPORTER "zipkin": only otlp`},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, fail: `"http/json": use http/protobuf or grpc`},
	} {
		for _, k := range TraceEnv {
			t.Setenv(k, tc.env[k])
		}
		tp, err := NewTracerProvider(context.Background())
		switch {
		case tc.fail != "":
			if err == nil || !strings.Contains(err.Error(), tc.fail) {
				t.Errorf("%v: %v, want %q", tc.env, err, tc.fail)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.env, err)
		case (tp != nil) != tc.on:
			t.Errorf("%v: provider %v, want on=%v", tc.env, tp, tc.on)
		}
		if tp != nil {
			tp.Shutdown(context.Background())
		}
	}
}

// traceCollector is an OTLP/gRPC trace endpoint that counts the spans it
// is sent.
type traceCollector struct {
	coltracepb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	names []string
}

func (c *traceCollector) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				c.names = append(c.names, s.Name)
			}
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// Spans reach an OTLP/gRPC collector when the protocol says grpc.
func TestTracesOverGRPC(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	c := &traceCollector{}
	coltracepb.RegisterTraceServiceServer(srv, c)
	go srv.Serve(ln)
	defer srv.Stop()
	for _, k := range TraceEnv {
		t.Setenv(k, "")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+ln.Addr().String()) // http: no TLS
	tp, err := NewTracerProvider(context.Background())
	if err != nil || tp == nil {
		t.Fatalf("provider %v: %v", tp, err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "over-grpc")
	span.End()
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.names) != 1 || c.names[0] != "over-grpc" {
		t.Errorf("collector got %v", c.names)
	}
}
