package quickjswasi

import (
	"bytes"
	"io"
	"os"

	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"golang.org/x/sys/unix"
)

// readEntry maps the entry, size bytes of f, rather than reading it: a heap
// buffer cost a page fault per 4 KiB, where the file's pages are in the page
// cache already and MAP_POPULATE maps them all in the one call. Entries are
// renamed into place, never written over, so the mapping holds what the
// file held.
func readEntry(f *os.File, size int) (io.ReadCloser, bool, error) {
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE)
	if err != nil {
		return nil, false, err
	}
	return &mapped{Reader: bytes.NewReader(b), b: b}, true, nil
}

// mapped is a cache entry's mapping, unmapped when wazero closes it.
type mapped struct {
	*bytes.Reader
	b []byte
}

// Read is bytes.Reader's, with a large p (wazero's fresh mapping for the
// compiled code) faulted in at once before the copy (see cowmem.Populate).
func (m *mapped) Read(p []byte) (int, error) {
	cowmem.Populate(p[:min(len(p), m.Len())])
	return m.Reader.Read(p)
}

func (m *mapped) Close() error {
	if m.b == nil {
		return nil
	}
	b := m.b
	m.b, m.Reader = nil, bytes.NewReader(nil)
	return unix.Munmap(b)
}
