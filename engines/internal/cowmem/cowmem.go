// Package cowmem lets the kernel say which pages of an instance's linear
// memory a cell wrote. The template's bytes live in a sealed memfd that every
// instance maps copy-on-write over the start of its linear memory: a page the
// instance never wrote is still the file's, a written one became private
// (anonymous), and /proc/self/pagemap tells the two apart for a few bytes
// per page, so a reset or a snapshot looks only at written pages instead of
// comparing the whole template.
//
// The guest cannot forge this record: it is kept by the MMU, not in guest
// memory. Where the kernel offers none of it (another OS, no memfd, no
// /proc), [NewImage] fails and callers compare pages as before.
package cowmem

import "errors"

// PageSize is the granularity of the record; it must be the OS page size.
const PageSize = 4096

// ErrUnsupported is returned where this OS offers no copy-on-write mappings
// or no page map.
var ErrUnsupported = errors.New("cowmem: not supported on this system")

// Reservation is memory for a wasm instance that never moves: max bytes of
// address space reserved up front, of which the first Reallocate'd bytes are
// accessible. It implements wazero's experimental.LinearMemory.
type Reservation struct {
	all  []byte // the whole reservation
	size int    // accessible bytes
}

// Bytes is the accessible memory.
func (r *Reservation) Bytes() []byte { return r.all[:r.size:r.size] }
