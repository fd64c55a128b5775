package host_test

import (
	"testing"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/host/runstoretest"
)

func TestMemoryRunStore(t *testing.T) {
	runstoretest.Test(t, func(*testing.T) host.RunStore { return host.NewMemoryRunStore(40) }, 40)
}
