package store

import (
	"context"
	"maps"
	"sync"
)

// Shapes keeps the result shapes learned of tools (package shape), so a
// restarted process or another replica starts from what was already seen.
// A shape is opaque bytes under a key within a group (an MCP server's
// name), and a group is loaded whole when its server connects. Methods
// must be safe for concurrent use.
type Shapes interface {
	LoadShapes(ctx context.Context, group string) (map[string][]byte, error)
	// SaveShape replaces key's shape; the caller bounds how many keys a
	// group holds ([MaxShapesPerGroup]) and each shape's size
	// ([MaxShapeBytes]).
	SaveShape(ctx context.Context, group, key string, shape []byte) error
}

// Bounds of what learning keeps.
const (
	MaxShapesPerGroup = 10000
	MaxShapeBytes     = 64 << 10
)

// MemoryShapes is a [Shapes] in this process.
type MemoryShapes struct {
	mu     sync.Mutex
	groups map[string]map[string][]byte
}

var _ Shapes = (*MemoryShapes)(nil)

func (m *MemoryShapes) LoadShapes(_ context.Context, group string) (map[string][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.groups[group]), nil
}

func (m *MemoryShapes) SaveShape(_ context.Context, group, key string, shape []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.groups == nil {
		m.groups = map[string]map[string][]byte{}
	}
	if m.groups[group] == nil {
		m.groups[group] = map[string][]byte{}
	}
	m.groups[group][key] = append([]byte(nil), shape...)
	return nil
}
