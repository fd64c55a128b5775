package driver

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The start-up caches (the rewritten module, the template image) hold what
// this binary's own code derives from the pinned module. They live next to
// the runtime's compilation cache and are trusted as much as it is: anyone
// who can write there can already replace the native code the runtime loads.
// The checks below are against staleness and damage, not an attacker.

// maxCacheKeep is how many entries of one kind a cache directory keeps: every
// rebuilt binary (each `go test` of a changed package, too) makes new ones.
const maxCacheKeep = 8

var buildID = sync.OnceValue(readBuildID)

// readBuildID returns the Go build ID of the running executable, "" when it
// cannot be found. It changes whenever any code linked into the binary does,
// so a cache keyed by it never serves what another version of the rewriter
// or the template build made, with no version number to remember to bump.
func readBuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	// The ID sits within the first pages of the file: in an ELF note
	// (namesz 4, descsz, type 4, "Go\0\0", ID) or, in other formats, at the
	// start of text between the markers below. This is where the go command
	// itself looks.
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if i := bytes.Index(head, []byte("\xff Go build ID: \"")); i >= 0 {
		rest := head[i+len("\xff Go build ID: \""):]
		if j := bytes.Index(rest, []byte("\"\n \xff")); j > 0 {
			return string(rest[:j])
		}
	}
	for off := 0; ; {
		i := bytes.Index(head[off:], []byte("Go\x00\x00"))
		if i < 0 {
			return ""
		}
		i += off
		off = i + 1
		if i < 12 || binary.LittleEndian.Uint32(head[i-12:]) != 4 || binary.LittleEndian.Uint32(head[i-4:]) != 4 {
			continue
		}
		size := int(binary.LittleEndian.Uint32(head[i-8:]))
		if size > 0 && size < 256 && i+4+size <= len(head) {
			return string(head[i+4 : i+4+size])
		}
	}
}

// CacheFile names the cache entry in dir for what this binary derives from
// the inputs parts: kind-<hash of build ID and parts>.ext. It returns "" when
// there is no directory or no build ID, and then nothing is cached.
func CacheFile(dir, kind, ext string, parts ...string) string {
	id := buildID()
	if dir == "" || id == "" {
		return ""
	}
	h := sha256.New()
	for _, p := range append([]string{id}, parts...) {
		// Length-prefixed, so that no two lists of parts hash alike.
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return filepath.Join(dir, kind+"-"+hex.EncodeToString(h.Sum(nil)[:16])+ext)
}

// errCacheDamaged marks an entry whose checksum does not match.
var errCacheDamaged = errors.New("damaged: checksum mismatch")

// ReadCache returns the payload of a cache entry written by [WriteCache],
// refusing one larger than limit bytes. A missing entry is an error
// satisfying errors.Is(err, fs.ErrNotExist); a damaged or truncated one
// fails its checksum.
func ReadCache(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() < sha256.Size || st.Size() > limit+sha256.Size {
		return nil, fmt.Errorf("%w: size %d", errCacheDamaged, st.Size())
	}
	b := make([]byte, st.Size())
	cowmem.Populate(b)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	payload, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if want := sha256.Sum256(payload); !bytes.Equal(sum, want[:]) {
		return nil, errCacheDamaged
	}
	return payload, nil
}

// WriteCache writes payload and its sha256 to path atomically (see
// [WriteAtomic]), so concurrent processes read a whole entry or none, then
// removes the oldest entries of the same kind beyond [maxCacheKeep].
func WriteCache(path string, payload []byte) error {
	b := make([]byte, 0, len(payload)+sha256.Size)
	sum := sha256.Sum256(payload)
	b = append(append(b, payload...), sum[:]...)
	if err := WriteAtomic(path, b); err != nil {
		return err
	}
	prune(path)
	return nil
}

// prune removes the oldest entries of path's kind (its name up to the last
// '-') beyond maxCacheKeep. Another process may be reading one of them; it
// then sees a missing entry and rebuilds it.
func prune(path string) {
	dir, name := filepath.Split(path)
	kind := name[:strings.LastIndexByte(name, '-')+1]
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		mod  int64
	}
	var same []entry
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, kind) && n != name {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				same = append(same, entry{n, info.ModTime().UnixNano()})
			}
		}
	}
	if len(same) < maxCacheKeep {
		return
	}
	slices.SortFunc(same, func(a, b entry) int { return cmp.Compare(b.mod, a.mod) })
	for _, e := range same[maxCacheKeep-1:] {
		os.Remove(filepath.Join(dir, e.name))
	}
}
