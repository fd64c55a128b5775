package host

import "time"

// Deadlines of test legs. A loaded machine can stretch a cell's start (the
// source check, a new engine instance) past a few hundred milliseconds, so a
// verdict may depend on a short deadline only when that deadline is what the
// test is about and nothing else must happen before it.
const (
	// roomyTimeoutMs is for legs that must complete: they never get near it.
	roomyTimeoutMs = 30000
	// parkTimeoutMs is for legs that must park at their deadline after the
	// cell issued a call (or set a timer): room for the cell to get there.
	parkTimeoutMs = 2000
)

// setLegTimeout changes the wall clock of the runtime's next legs, so that a
// test can give the leg under test a short deadline and the legs around it a
// roomy one. Only between legs: a leg reads it when it starts.
func setLegTimeout(rt *Runtime, d time.Duration) { rt.bounds.Timeout = d }
