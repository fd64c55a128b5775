package driver

import (
	"os"
	"path/filepath"
)

// CacheDir resolves a compilation cache option: empty means the environment
// variable env, and if that is empty too, sub under the user cache directory;
// "off", or no user cache directory, means none ("").
func CacheDir(dir, env, sub string) string {
	if dir == "" {
		dir = os.Getenv(env)
	}
	if dir == "off" {
		return ""
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, sub)
	}
	return dir
}

// CacheWarm reports whether a resolved cache directory already holds
// compiled code.
func CacheWarm(dir string) bool {
	if dir == "" {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}

// WriteAtomic puts b at path through a temporary file in the same directory
// and a rename, so a reader (another process starting an engine) sees the
// old file or the whole new one. It does not fsync: a cache file torn by a
// crash fails its check at the next start and is made again.
func WriteAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
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
