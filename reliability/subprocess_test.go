package reliability

// subprocessMode returns what the test binary runs instead of the tests when
// a fault test starts it as a helper process; nil means run the tests.
func subprocessMode() func() int { return nil }
