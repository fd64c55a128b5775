// Package conformancetest runs the conformance table as Go tests. It is
// apart from package conformance so that the codemode binary, which runs
// the table through conformance.Check, does not link package testing.
package conformancetest

import (
	"context"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/conformance"
)

// Run runs the whole table as parallel subtests against one engine, made
// once by newEngine and closed when the test ends. engine names the engine
// in the baseline; skipping is by capability only.
func Run(t *testing.T, engine string, newEngine func(testing.TB) abi.Engine) {
	t.Helper()
	j, err := conformance.NewJudge()
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t)
	t.Cleanup(func() { eng.Close(context.Background()) })
	caps := eng.Capabilities()
	for _, c := range conformance.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if m := conformance.Missing(caps, c.Needs); len(m) > 0 {
				t.Skip("engine lacks capability " + strings.Join(m, ", "))
			}
			t.Parallel()
			got, err := conformance.Exec(context.Background(), eng, c)
			if err != nil {
				t.Fatal(err)
			}
			switch v, detail := j.Verdict(c, engine, got); v {
			case conformance.Known:
				t.Log("known divergence: " + detail)
			case conformance.Fail:
				t.Error(detail)
			}
		})
	}
}
