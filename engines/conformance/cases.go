package conformance

import "github.com/seed11a79d2d/codemode/abi"

// Cases returns the table, grouped by what the rows check. Names are unique
// and stable: a baseline entry and a regression report name a row by them.
// Every bug found anywhere in the project becomes a row named after it.
func Cases() []Case {
	var all []Case
	for _, g := range [][]Case{
		languageCases(),
		builtinCases(),
		valueCases(),
		errorCases(),
		bridgeCases(),
		limitCases(),
		snapshotCases(),
		envCases(),
		consoleCases(),
		webCases(),
		nodeCases(),
		intlCases(),
	} {
		all = append(all, g...)
	}
	return all
}

// ok is a row whose cell completes with value (JSON text).
func ok(name, src, value string) Case {
	return Case{Name: name, Source: src, Want: `{"status":"completed","value":` + value + `}`}
}

// fails is a row whose cell fails; failure is the JSON of a [Failure].
func fails(name, src, failure string) Case {
	return Case{Name: name, Source: src, Want: `{"status":"failed","failure":` + failure + `}`}
}

// with returns c changed by f, for rows that need a host script or limits.
func with(c Case, f func(*Case)) Case {
	f(&c)
	return c
}

var (
	needInterrupt = abi.Capabilities{Interrupt: true}
	needStack     = abi.Capabilities{StackLimit: true}
	needMemory    = abi.Capabilities{MemoryLimit: true}
	needSnapshot  = abi.Capabilities{Snapshot: true}
)

var needSnapshotInterrupt = abi.Capabilities{Snapshot: true, Interrupt: true}
