package wasmfile

import (
	"fmt"
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
	return io.ReadAll(io.LimitReader(f, MaxSize))
}

// Install verifies b and writes it to path the way a download is written.
// It is how make setup fills the cache from a tarball npm fetched.
func (p Pin) Install(path string, b []byte) error {
	if err := p.Verify(b); err != nil {
		return err
	}
	return driver.WriteAtomic(path, b)
}
