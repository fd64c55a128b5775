package mcpserve

import (
	"slices"

	"github.com/seed11a79d2d/codemode/host"
)

// redacted is r with its output, value and error passed through
// Options.Redact, before the result reaches the model.
func (s *service) redacted(r host.Result) host.Result {
	x := s.opts.Redact
	if x == nil {
		return r
	}
	r.Value = x.JSON(r.Value)
	r.Error = x.String(r.Error)
	r.Output = slices.Clone(r.Output) // the run's own slice stays as it was
	for i, o := range r.Output {
		if o.Type == "json" {
			r.Output[i].Value = x.JSON(o.Value)
		} else {
			r.Output[i].Text = x.String(o.Text)
		}
	}
	return r
}
