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
