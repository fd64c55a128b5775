package cowmem

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func mustPagemap(t *testing.T) *os.File {
	f, err := pagemap()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func pwrite(im *Image, b []byte) error {
	_, err := unix.Pwrite(im.fd, b, 0)
	return err
}
