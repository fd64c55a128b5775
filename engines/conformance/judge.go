package conformance

// Judge judges outcomes against the table and the baseline, parsed once. It
// is what package conformancetest's Run needs from here: the test runner
// lives there because this package is linked into the codemode binary
// (codemode conformance), which must not link package testing.
type Judge struct{ base map[baseKey]Divergence }

// NewJudge parses the baseline.
func NewJudge() (*Judge, error) {
	base, err := baselineIndex()
	if err != nil {
		return nil, err
	}
	return &Judge{base: base}, nil
}

// Verdict judges one outcome of c on the named engine: [Pass], [Fail] or
// [Known], with a detail for the last two.
func (j *Judge) Verdict(c Case, engine string, got Outcome) (string, string) {
	return verdict(c, engine, got, j.base)
}
