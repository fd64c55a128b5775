package ops

import (
	"context"
	"strings"
	"testing"
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
