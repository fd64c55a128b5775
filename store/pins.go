package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Pins keeps the definitions of downstream tools as they were first seen
// (or last approved), so that a tool whose server changes its description
// or schema later is held back until a person approves the change. Keys
// are catalog ids (mcp:<server>:<tool>). Methods must be safe for
// concurrent use; a Put replaces whole records (the last writer wins).
//
// Implementations: [NewMemoryPins], [NewFilePins] and the Redis store's
// Pins in package redisstore.
type Pins interface {
	// Get returns the pin of id, or ok false when it has none.
	Get(ctx context.Context, id string) (pin Pin, ok bool, err error)
	// Put stores each pin under its ID, in one write where the store can:
	// a server's first listing pins all its tools at once.
	Put(ctx context.Context, pins ...Pin) error
	// List returns every pin, sorted by id.
	List(ctx context.Context) ([]Pin, error)
}

// Pin is one tool's pinned definition and, while it is quarantined, the
// changed definition that was seen instead.
type Pin struct {
	ID string `json:"id"`
	Definition
	// Changed is the definition last seen that differs from the pinned
	// one: the tool is quarantined until it is approved, which makes it the
	// pinned one. Nil when the tool matches its pin.
	Changed *Definition `json:"changed,omitempty"`
}

// Definition is the hash of a tool's whole definition and the hash of each
// of its fields, so that a change can name what changed.
type Definition struct {
	Hash   string            `json:"hash"`
	Fields map[string]string `json:"fields,omitempty"`
}

// ChangedFields names the fields whose hashes differ between d and e,
// sorted: a field present in one only counts as changed.
func (d Definition) ChangedFields(e Definition) []string {
	var out []string
	for k, v := range d.Fields {
		if e.Fields[k] != v {
			out = append(out, k)
		}
	}
	for k := range e.Fields {
		if _, ok := d.Fields[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ErrNotQuarantined is [Approve]'s error for a tool with no changed
// definition waiting.
var ErrNotQuarantined = errors.New("the tool is not quarantined: its definition matches its pin, or it was never seen")

// Approve makes the changed definition of id its pin, and returns the pin
// as it now is. The hash the approver saw, when not empty, must be the
// changed one: a tool that changed again since is not approved blind.
func Approve(ctx context.Context, p Pins, id, hash string) (Pin, error) {
	pin, ok, err := p.Get(ctx, id)
	switch {
	case err != nil:
		return Pin{}, err
	case !ok || pin.Changed == nil:
		return Pin{}, fmt.Errorf("%s: %w", id, ErrNotQuarantined)
	case hash != "" && hash != pin.Changed.Hash:
		return Pin{}, fmt.Errorf("%s: its changed definition is now %s, not %s: review it again", id, pin.Changed.Hash, hash)
	}
	pin.Definition, pin.Changed = *pin.Changed, nil
	return pin, p.Put(ctx, pin)
}

// NewMemoryPins returns a [Pins] store in this process's memory: nothing
// survives the process, so every restart pins afresh.
func NewMemoryPins() Pins { return &memoryPins{pins: map[string]Pin{}} }

type memoryPins struct {
	mu   sync.Mutex
	pins map[string]Pin
}

func (m *memoryPins) Get(_ context.Context, id string) (Pin, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.pins[id]
	return clonePin(p), ok, nil
}

func (m *memoryPins) Put(_ context.Context, pins ...Pin) error {
	if err := checkIDs(pins); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range pins {
		m.pins[p.ID] = clonePin(p)
	}
	return nil
}

func checkIDs(pins []Pin) error {
	for _, p := range pins {
		if p.ID == "" {
			return errors.New("pin store: a pin needs an id")
		}
	}
	return nil
}

func (m *memoryPins) List(context.Context) ([]Pin, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Pin, 0, len(m.pins))
	for _, id := range slices.Sorted(maps.Keys(m.pins)) {
		out = append(out, clonePin(m.pins[id]))
	}
	return out, nil
}

func clonePin(p Pin) Pin {
	p.Fields = maps.Clone(p.Fields)
	if p.Changed != nil {
		c := *p.Changed
		c.Fields = maps.Clone(c.Fields)
		p.Changed = &c
	}
	return p
}

// maxPinFileBytes bounds the pin file a [NewFilePins] store reads: a file
// that grew past it is refused rather than read whole.
const maxPinFileBytes = 16 << 20

// NewFilePins returns a [Pins] store in the JSON file at path (created on
// the first Put, with mode 0600): for one machine, kept across restarts,
// and read by `codemode tools approve`. Every call reads the file, so an
// approval made by another process is seen; a Put rewrites it through a
// temporary file and a rename, so a reader never sees half of it. Two
// processes that Put at once may lose one write (the tool is then pinned
// or quarantined again at its next listing).
func NewFilePins(path string) Pins { return &filePins{path: path} }

type filePins struct {
	mu   sync.Mutex // orders this process's read-modify-writes
	path string
}

type pinFile struct {
	Pins map[string]Pin `json:"pins"`
}

func (f *filePins) read() (map[string]Pin, error) {
	file, err := os.Open(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Pin{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pin store: %w", err)
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, maxPinFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("pin store: %w", err)
	}
	if len(b) > maxPinFileBytes {
		return nil, fmt.Errorf("pin store: %s has more than %d bytes", f.path, maxPinFileBytes)
	}
	var pf pinFile
	if err := json.Unmarshal(b, &pf); err != nil {
		return nil, fmt.Errorf("pin store: %s: %w", f.path, err)
	}
	if pf.Pins == nil {
		pf.Pins = map[string]Pin{}
	}
	for id, p := range pf.Pins {
		p.ID = id
		pf.Pins[id] = p
	}
	return pf.Pins, nil
}

func (f *filePins) Get(_ context.Context, id string) (Pin, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	pins, err := f.read()
	if err != nil {
		return Pin{}, false, err
	}
	p, ok := pins[id]
	return p, ok, nil
}

func (f *filePins) Put(_ context.Context, add ...Pin) error {
	if err := checkIDs(add); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	pins, err := f.read()
	if err != nil {
		return err
	}
	for _, p := range add {
		pins[p.ID] = p
	}
	b, err := json.MarshalIndent(pinFile{pins}, "", "  ")
	if err != nil {
		return fmt.Errorf("pin store: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".pins-*")
	if err != nil {
		return fmt.Errorf("pin store: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err = tmp.Write(append(b, '\n')); err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.path)
	}
	if err != nil {
		return fmt.Errorf("pin store: %w", err)
	}
	return nil
}

func (f *filePins) List(context.Context) ([]Pin, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	pins, err := f.read()
	if err != nil {
		return nil, err
	}
	out := make([]Pin, 0, len(pins))
	for _, id := range slices.Sorted(maps.Keys(pins)) {
		out = append(out, pins[id])
	}
	return out, nil
}
