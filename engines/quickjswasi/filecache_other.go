//go:build !linux

package quickjswasi

import (
	"bytes"
	"io"
	"os"
)

// readEntry reads the entry, size bytes of f, in one call.
func readEntry(f *os.File, size int) (io.ReadCloser, bool, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false, err
	}
	return io.NopCloser(bytes.NewReader(b)), true, nil
}
