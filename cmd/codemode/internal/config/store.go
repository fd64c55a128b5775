package config

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Store is the store key: where serve keeps parked runs so that replicas
// share them and restarts keep them.
type Store struct {
	// URL is a redis:// or rediss:// URL, its variables expanded.
	URL string
	// KeyFile holds the signing key; relative to the config file's
	// directory. Empty means $CODEMODE_STORE_KEY.
	KeyFile string
	// MaxRuns caps parked runs across the replicas; 0 means the store's
	// default.
	MaxRuns int
}

// store reads the store key: a URL, or an object with url, keyFile and
// maxRuns.
func (d *decoder) store(n *Node, field string) {
	s := &Store{}
	url := func(v *Node, f string) {
		if d.str(v, f, &s.URL); d.err == nil {
			d.expand(v, f, &s.URL)
		}
		if d.err == nil && !strings.HasPrefix(s.URL, "redis://") && !strings.HasPrefix(s.URL, "rediss://") {
			d.fail(v, f, "must be a redis:// or rediss:// URL")
		}
	}
	switch n.Kind {
	case String:
		url(n, field)
	case Object:
		d.object(n, field, map[string]func(*Node, string){
			"url": url,
			"keyFile": func(v *Node, f string) {
				if d.str(v, f, &s.KeyFile); d.err == nil && s.KeyFile != "" && !filepath.IsAbs(s.KeyFile) {
					s.KeyFile = filepath.Join(filepath.Dir(d.f.Path), s.KeyFile)
				}
			},
			"maxRuns": func(v *Node, f string) {
				m, err := strconv.Atoi(v.Num)
				if v.Kind != Number || err != nil || m < 1 {
					d.fail(v, f, "must be a positive whole number")
					return
				}
				s.MaxRuns = m
			},
		})
		if d.err == nil && s.URL == "" {
			d.fail(n, field, "needs a url (redis://host:port/db)")
		}
	default:
		d.fail(n, field, "must be a redis:// URL or an object with url, keyFile and maxRuns, not %s", article(n.Kind))
	}
	if d.err == nil {
		d.f.Store = s
	}
}
