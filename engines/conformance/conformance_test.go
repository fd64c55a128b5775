package conformance_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
	"github.com/seed11a79d2d/codemode/engines/conformance"
	"github.com/seed11a79d2d/codemode/engines/conformance/gojaengine"
	"github.com/seed11a79d2d/codemode/engines/quickjswasi"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// goja formats local time in time.Local; the production engine runs in
	// UTC, and so must the oracle.
	time.Local = time.UTC
	goleak.VerifyTestMain(m)
	os.Exit(0)
}

func newQuickJS(t testing.TB) abi.Engine {
	e, err := quickjswasi.New(context.Background(), &quickjswasi.Options{CacheDir: os.Getenv(quickjswasi.CacheDirEnv)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func newGoja(t testing.TB) abi.Engine {
	e, err := gojaengine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestConformanceQuickJSWASI(t *testing.T) {
	conformance.Run(t, "quickjswasi", newQuickJS)
}

func TestConformanceGoja(t *testing.T) {
	conformance.Run(t, "goja", newGoja)
}

// TestDifferential runs every case on both engines and compares the
// normalised outcomes as JSON. A difference is allowed only where the
// baseline explains the outcome of the engine that diverges.
func TestDifferential(t *testing.T) {
	base, err := conformance.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	known := map[[2]string]string{}
	for _, d := range base {
		known[[2]string{d.Case, d.Engine}] = d.Outcome.JSON()
	}
	engines := []struct {
		name string
		eng  abi.Engine
	}{{"quickjswasi", newQuickJS(t)}, {"goja", newGoja(t)}}
	for _, e := range engines {
		t.Cleanup(func() { e.eng.Close(context.Background()) })
	}
	for _, c := range conformance.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			for _, e := range engines {
				if m := conformance.Missing(e.eng.Capabilities(), c.Needs); len(m) > 0 {
					t.Skipf("%s lacks %s", e.name, strings.Join(m, ", "))
				}
			}
			t.Parallel()
			var got [2]string
			for i, e := range engines {
				o, err := conformance.Exec(context.Background(), e.eng, c)
				if err != nil {
					t.Fatalf("%s: %v", e.name, err)
				}
				got[i] = o.JSON()
			}
			if got[0] == got[1] {
				return
			}
			for i, e := range engines {
				if known[[2]string{c.Name, e.name}] == got[i] {
					return
				}
			}
			t.Errorf("engines disagree and the baseline does not explain it:\n  %s: %s\n  %s: %s",
				engines[0].name, got[0], engines[1].name, got[1])
		})
	}
}

func TestTable(t *testing.T) {
	cases := conformance.Cases()
	if len(cases) < 150 {
		t.Errorf("the table has %d cases; the issue asks for at least 150", len(cases))
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		names[c.Name] = true
		if d := c.Match(conformance.Outcome{Status: "x"}); len(d) > 0 && strings.Contains(d[0], "parse want") {
			t.Error(d[0])
		}
	}
	base, err := conformance.Baseline()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]string]bool{}
	for _, d := range base {
		if !names[d.Case] {
			t.Errorf("baseline names unknown case %q", d.Case)
		}
		if d.Engine != "goja" && d.Engine != "quickjswasi" {
			t.Errorf("baseline names unknown engine %q", d.Engine)
		}
		if seen[[2]string{d.Case, d.Engine}] || strings.TrimSpace(d.Reason) == "" {
			t.Errorf("baseline entry %s/%s is duplicated or has no reason", d.Case, d.Engine)
		}
		seen[[2]string{d.Case, d.Engine}] = true
	}
}
