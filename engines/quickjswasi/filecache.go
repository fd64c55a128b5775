package quickjswasi

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"unsafe"

	"github.com/tetratelabs/wazero"
)

// wazero reads a compilation cache entry straight from the file, eight bytes
// at a time for each of quickjs.wasm's ~1,700 function offsets: a system
// call each, a sixth of a warm process start. Its cache has no public hook,
// so oneRead wraps wazero's own file cache in place (the field is private)
// and hands wazero the entry read in one call. Entries, their names, their
// checksum (wazero's CRC32 of the code) and how they are written stay
// wazero's; if a wazero release moves the field, cache entries are read
// wazero's way again and TestCompilationCacheReadsOnce says so.

// fileCache is the method set of wazero's internal filecache.Cache (its key
// type is an alias of [32]byte, so this type satisfies that interface).
type fileCache interface {
	Get(key [32]byte) (content io.ReadCloser, ok bool, err error)
	Add(key [32]byte, content io.Reader) error
	Delete(key [32]byte) error
}

// oneRead is wazero's file cache with Get reading the whole entry at once.
type oneRead struct{ fileCache }

// maxCacheEntry bounds an entry read into memory; quickjs.wasm's is 2.8 MB.
const maxCacheEntry = 256 << 20

func (c oneRead) Get(key [32]byte) (io.ReadCloser, bool, error) {
	r, ok, err := c.fileCache.Get(key)
	if !ok || err != nil {
		return r, ok, err
	}
	defer r.Close()
	f, isFile := r.(*os.File)
	if !isFile {
		b, err := io.ReadAll(io.LimitReader(r, maxCacheEntry))
		return io.NopCloser(bytes.NewReader(b)), err == nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if st.Size() > maxCacheEntry || st.Size() == 0 {
		return nil, false, fmt.Errorf("compilation cache entry %s is %d bytes", f.Name(), st.Size())
	}
	return readEntry(f, int(st.Size()))
}

// readOnce makes cache's entries read in one call, and reports whether it
// could (see oneRead).
func readOnce(cache wazero.CompilationCache) bool {
	v := reflect.ValueOf(cache)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	f := v.Elem().FieldByName("fileCache")
	if !f.IsValid() || f.Kind() != reflect.Interface || !f.CanAddr() {
		return false
	}
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	inner, ok := f.Interface().(fileCache)
	if !ok || inner == nil || !reflect.TypeFor[oneRead]().Implements(f.Type()) {
		return false
	}
	if _, done := inner.(oneRead); !done {
		f.Set(reflect.ValueOf(oneRead{inner}))
	}
	return true
}
