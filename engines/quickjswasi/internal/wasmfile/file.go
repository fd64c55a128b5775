package wasmfile

import (
	"fmt"
	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"io"
	"os"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

// readFile reads a module file, refusing one larger than MaxSize before
// reading it.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > MaxSize {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d allowed", path, st.Size(), MaxSize)
	}
	// One read into a buffer of the file's size (and a byte more, to see a
	// file that grew meanwhile): growing one as io.ReadAll does touched
	// three times the memory, a page fault each 4 KiB.
	b := make([]byte, st.Size()+1)
	cowmem.Populate(b)
	n, err := io.ReadFull(f, b)
	switch {
	case err == nil:
		return nil, fmt.Errorf("%s grew while read", path)
	case err != io.ErrUnexpectedEOF && err != io.EOF:
		return nil, err
	}
	return b[:n:n], nil
}

// Install verifies b and writes it to path the way a download is written.
// It is how make setup fills the cache from a tarball npm fetched.
func (p Pin) Install(path string, b []byte) error {
	if err := p.Verify(b); err != nil {
		return err
	}
	return driver.WriteAtomic(path, b)
}
