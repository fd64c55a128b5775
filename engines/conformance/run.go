package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
)

// Run runs the whole table as parallel subtests against one engine, made
// once by newEngine and closed when the test ends. engine names the engine
// in the baseline; skipping is by capability only.
func Run(t *testing.T, engine string, newEngine func(testing.TB) abi.Engine) {
	t.Helper()
	base, err := baselineIndex()
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t)
	t.Cleanup(func() { eng.Close(context.Background()) })
	caps := eng.Capabilities()
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if m := Missing(caps, c.Needs); len(m) > 0 {
				t.Skip("engine lacks capability " + strings.Join(m, ", "))
			}
			t.Parallel()
			got, err := Exec(context.Background(), eng, c)
			if err != nil {
				t.Fatal(err)
			}
			switch v, detail := verdict(c, engine, got, base); v {
			case Known:
				t.Log("known divergence: " + detail)
			case Fail:
				t.Error(detail)
			}
		})
	}
}
