package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/seed11a79d2d/codemode/abi"
)

// Result is the verdict of one case on one engine.
type Result struct {
	Engine  string   `json:"engine"`
	Case    string   `json:"case"`
	Verdict string   `json:"verdict"` // [Pass], [Fail], [Skip] or [Known]
	Detail  string   `json:"detail,omitempty"`
	Outcome *Outcome `json:"outcome,omitempty"`
}

// Check runs every case on eng, one after another, and judges each against
// the table and the baseline under the given engine name.
func Check(ctx context.Context, engine string, eng abi.Engine) ([]Result, error) {
	base, err := baselineIndex()
	if err != nil {
		return nil, err
	}
	caps := eng.Capabilities()
	var out []Result
	for _, c := range Cases() {
		r := Result{Engine: engine, Case: c.Name}
		if m := Missing(caps, c.Needs); len(m) > 0 {
			r.Verdict, r.Detail = Skip, "lacks "+strings.Join(m, ", ")
		} else if got, err := Exec(ctx, eng, c); err != nil {
			r.Verdict, r.Detail = Fail, err.Error()
		} else {
			r.Verdict, r.Detail = verdict(c, engine, got, base)
			r.Outcome = &got
		}
		out = append(out, r)
	}
	return out, nil
}

// Summary counts results; known divergences count as passed.
func Summary(results []Result) (passed, failed, skipped int) {
	for _, r := range results {
		switch r.Verdict {
		case Pass, Known:
			passed++
		case Fail:
			failed++
		default:
			skipped++
		}
	}
	return
}

// WriteReport prints results as a table of cases × engines and a summary
// line "N passed, N failed, N skipped", or as one JSON document.
func WriteReport(w io.Writer, results []Result, asJSON bool) error {
	p, f, s := Summary(results)
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Results []Result `json:"results"`
			Passed  int      `json:"passed"`
			Failed  int      `json:"failed"`
			Skipped int      `json:"skipped"`
		}{results, p, f, s})
	}
	var engines, cases []string
	cell := map[[2]string]string{}
	for _, r := range results {
		if !contains(engines, r.Engine) {
			engines = append(engines, r.Engine)
		}
		if !contains(cases, r.Case) {
			cases = append(cases, r.Case)
		}
		cell[[2]string{r.Case, r.Engine}] = r.Verdict
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "case\t%s\n", strings.Join(engines, "\t"))
	for _, c := range cases {
		row := make([]string, len(engines))
		for i, e := range engines {
			row[i] = cell[[2]string{c, e}]
		}
		fmt.Fprintf(tw, "%s\t%s\n", c, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.Verdict == Fail {
			fmt.Fprintf(w, "\nFAIL %s on %s:\n%s\n", r.Case, r.Engine, r.Detail)
		}
	}
	_, err := fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", p, f, s)
	return err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
