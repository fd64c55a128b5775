// Package wasmfile obtains the pinned quickjs.wasm, which is never committed
// to the repository: from bytes the caller holds, from a file the
// environment names, from the user cache, or else by downloading the npm
// tarball of quickjs-wasi once into that cache. Whatever the source, the
// bytes are read into memory and checked against the pinned sha256 before
// they are returned, so what is verified is what runs.
package wasmfile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/seed11a79d2d/codemode/engines/internal/driver"
)

const (
	// Package and Entry name the file: Entry inside the npm tarball of
	// Package.
	Package = "quickjs-wasi"
	Entry   = "package/quickjs.wasm"
	// MaxSize bounds the module (0.6 MiB today) wherever it comes from, so
	// a wrong file or a hostile tarball entry is refused before it is read
	// whole.
	MaxSize = 4 << 20
)

// Pin is one version of the module and its sha256 (lower-case hex).
type Pin struct{ Version, SHA256 string }

// Sources say where [Pin.Load] looks, in this order.
type Sources struct {
	// Bytes are the caller's copy; BytesName says what holds them in errors.
	Bytes     []byte
	BytesName string
	// File is the value of the environment variable named Env; "" if unset.
	File, Env string
	// Cache is the cache file; "" when there is no user cache directory.
	Cache string
	// Registry is the npm registry's base URL; Client fetches from it.
	Registry string
	Client   *http.Client
	// Fetched is told the cache path after a download was written there;
	// nil logs it at Info on Logger. Logger also gets a cache that could
	// not be written (the download is used anyway).
	Fetched func(path string)
	Logger  *slog.Logger
}

// errMismatch marks a file that is not the pinned module.
var errMismatch = errors.New("not the pinned file")

// Verify checks b against the pinned sha256.
func (p Pin) Verify(b []byte) error {
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != p.SHA256 {
		return fmt.Errorf("%w: sha256 %s, want %s", errMismatch, got, p.SHA256)
	}
	return nil
}

// advice is how to give the engine a good copy by hand.
func (p Pin) advice(env string) string {
	return fmt.Sprintf("set %s to a copy of %s %s's %s (sha256 %s)", env, Package, p.Version, Entry, p.SHA256)
}

// CachePath is where a download is kept:
// <user cache dir>/codemode/quickjs-wasi-<version>/quickjs.wasm. It sits next
// to the compilation caches but does not follow CODEMODE_CACHE_DIR, which
// tests point at empty directories to get a cold compile.
func (p Pin) CachePath() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "codemode", Package+"-"+p.Version, "quickjs.wasm"), nil
}

// fill serialises cache fills within a process, so engines started at once
// download once; across processes the rename keeps the file whole.
var fill sync.Mutex

// Load returns the verified module from the first source that has one. An
// explicit source (Bytes, File) that is wrong is an error, never skipped; a
// wrong cache file is replaced by a fresh download.
func (p Pin) Load(ctx context.Context, s Sources) ([]byte, error) {
	if s.Bytes != nil {
		if err := p.Verify(s.Bytes); err != nil {
			return nil, fmt.Errorf("%s: %w; pass the bytes of %s %s's %s, or nil to let the engine find them", s.BytesName, err, Package, p.Version, Entry)
		}
		return s.Bytes, nil
	}
	if s.File != "" {
		b, err := readFile(s.File)
		if err == nil {
			err = p.Verify(b)
		}
		if err != nil {
			return nil, fmt.Errorf("$%s (%s): %w; refusing to run it: %s, or unset it to use the cache", s.Env, s.File, err, p.advice(s.Env))
		}
		return b, nil
	}
	if s.Cache == "" {
		return nil, fmt.Errorf("no user cache directory to keep %s %s in; %s", Package, p.Version, p.advice(s.Env))
	}
	fill.Lock()
	defer fill.Unlock()
	b, stale := readFile(s.Cache)
	if stale == nil {
		if stale = p.Verify(b); stale == nil {
			return b, nil
		}
	}
	url := TarballURL(s.Registry, p.Version)
	b, err := p.Fetch(ctx, s.Client, url)
	if err != nil {
		if !errors.Is(stale, fs.ErrNotExist) {
			return nil, fmt.Errorf("cached %s: %v; fetching a fresh copy from %s failed: %w; to run offline, %s", s.Cache, stale, url, err, p.advice(s.Env))
		}
		return nil, fmt.Errorf("fetch %s %s from %s: %w; to run offline, %s", Package, p.Version, url, err, p.advice(s.Env))
	}
	if err := driver.WriteAtomic(s.Cache, b); err != nil {
		logger(s).Warn("quickjs-wasi fetched but not cached; the next start fetches it again", "path", s.Cache, "err", err)
		return b, nil
	}
	if s.Fetched != nil {
		s.Fetched(s.Cache)
	} else {
		logger(s).Info("fetched "+Package+" "+p.Version, "sha256", p.SHA256, "path", s.Cache)
	}
	return b, nil
}

func logger(s Sources) *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}
