package wasmfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// writeAtomic puts b at path through a temporary file in the same
// directory and a rename, so a reader (another process starting an engine)
// sees the old file or the whole new one. It does not fsync: a file torn
// by a crash fails verification at the next start and is fetched again.
func writeAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".quickjs-*.wasm")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Install verifies b and writes it to path the way a download is written.
// It is how make setup fills the cache from a tarball npm fetched.
func (p Pin) Install(path string, b []byte) error {
	if err := p.Verify(b); err != nil {
		return err
	}
	return writeAtomic(path, b)
}
