package host

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: parked
// runs, nested calls and engines must all be cleaned up.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
