package conformance

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Verdicts of one case on one engine.
const (
	Pass  = "pass"
	Fail  = "fail"
	Skip  = "skip"
	Known = "known" // a divergence listed in the baseline, reason given
)

// Divergence is one entry of the baseline: an engine that, for a stated
// reason, gives Outcome instead of the table's expectation.
type Divergence struct {
	Case    string  `json:"case"`
	Engine  string  `json:"engine"`
	Reason  string  `json:"reason"`
	Outcome Outcome `json:"outcome"`
}

//go:embed testdata/baseline.json
var baselineJSON []byte

// Baseline returns the committed known divergences.
func Baseline() ([]Divergence, error) {
	var ds []Divergence
	dec := json.NewDecoder(bytes.NewReader(baselineJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ds); err != nil {
		return nil, fmt.Errorf("parse baseline: %w", err)
	}
	return ds, nil
}

type baseKey struct{ name, engine string }

func baselineIndex() (map[baseKey]Divergence, error) {
	ds, err := Baseline()
	if err != nil {
		return nil, err
	}
	m := make(map[baseKey]Divergence, len(ds))
	for _, d := range ds {
		k := baseKey{d.Case, d.Engine}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("baseline lists %s on %s twice", d.Case, d.Engine)
		}
		if strings.TrimSpace(d.Reason) == "" {
			return nil, fmt.Errorf("baseline entry %s on %s has no reason", d.Case, d.Engine)
		}
		m[k] = d
	}
	return m, nil
}

// JSON renders an outcome as compact JSON without HTML escaping.
func (o Outcome) JSON() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		return fmt.Sprintf(`{"status":"unencodable: %v"}`, err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// want parses a case's expected outcome and reports whether it constrains
// the requests.
func (c Case) want() (Outcome, bool, error) {
	var o Outcome
	dec := json.NewDecoder(strings.NewReader(c.Want))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, false, fmt.Errorf("case %s: parse want: %w", c.Name, err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal([]byte(c.Want), &keys)
	_, hasRequests := keys["requests"]
	return o, hasRequests, nil
}

// Match lists how got differs from a case's expectation; empty means it
// matches.
func (c Case) Match(got Outcome) []string {
	want, hasRequests, err := c.want()
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	diff := func(field string, w, g any) {
		diffs = append(diffs, fmt.Sprintf("%s: want %v, got %v", field, w, g))
	}
	if want.Status != got.Status {
		diff("status", want.Status, got.Status)
	}
	if want.Value != nil || got.Value != nil {
		if w := rawJSON(string(want.Value)); !bytes.Equal(w, got.Value) {
			diff("value", string(w), string(got.Value))
		}
	}
	switch {
	case want.Failure == nil && got.Failure != nil:
		diff("failure", "none", *got.Failure)
	case want.Failure != nil && got.Failure == nil:
		diff("failure", *want.Failure, "none")
	case want.Failure != nil:
		w, g := want.Failure, got.Failure
		if w.Kind != g.Kind {
			diff("failure.kind", w.Kind, g.Kind)
		}
		if w.Name != g.Name {
			diff("failure.name", w.Name, g.Name)
		}
		if p, ok := strings.CutSuffix(w.Message, "*"); ok {
			if !strings.HasPrefix(g.Message, p) {
				diff("failure.message", w.Message, g.Message)
			}
		} else if w.Message != g.Message {
			diff("failure.message", w.Message, g.Message)
		}
		if w.Line != 0 && w.Line != g.Line {
			diff("failure.line", w.Line, g.Line)
		}
	}
	if !equalStrings(want.Output, got.Output) {
		diff("output", quoteAll(want.Output), quoteAll(got.Output))
	}
	if hasRequests && !equalStrings(want.Requests, got.Requests) {
		diff("requests", quoteAll(want.Requests), quoteAll(got.Requests))
	}
	if !equalStrings(want.Steps, got.Steps) {
		diff("steps", want.Steps, got.Steps)
	}
	return diffs
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func quoteAll(s []string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// verdict judges one outcome of case c on the named engine against the
// table and the baseline.
func verdict(c Case, engine string, got Outcome, base map[baseKey]Divergence) (string, string) {
	diffs := c.Match(got)
	if d, ok := base[baseKey{c.Name, engine}]; ok {
		switch {
		case d.Outcome.JSON() == got.JSON():
			return Known, d.Reason
		case len(diffs) == 0:
			return Fail, "stale baseline entry: the case now matches the table; remove it"
		default:
			return Fail, "known divergence changed:\n  baseline " + d.Outcome.JSON() + "\n  got      " + got.JSON()
		}
	}
	if len(diffs) == 0 {
		return Pass, ""
	}
	return Fail, strings.Join(diffs, "\n") + "\n  got " + got.JSON()
}
