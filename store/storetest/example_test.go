package storetest_test

import (
	"testing"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
)

// A store's own test runs both suites on fresh, empty stores; here the
// in-memory ones, with a total cap of 40 parked runs.
func Example() {
	_ = func(t *testing.T) {
		storetest.Runs(t, func(*testing.T) store.Runs { return store.NewMemoryRuns(40) }, 40)
		storetest.Sessions(t, func(*testing.T) store.Sessions { return store.NewMemorySessions() })
	}
}
