package store_test

import (
	"testing"

	"github.com/seed11a79d2d/codemode/store"
	"github.com/seed11a79d2d/codemode/store/storetest"
)

func TestMemoryShapes(t *testing.T) {
	var m store.MemoryShapes
	storetest.Shapes(t, func(*testing.T) store.Shapes { return &m })
}
