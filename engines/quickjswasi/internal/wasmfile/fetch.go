package wasmfile

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

const (
	// DefaultRegistry is npm's public registry.
	DefaultRegistry = "https://registry.npmjs.org/"
	// RegistryEnv is npm's own override of the registry, so a mirror set up
	// for npm serves the engine too. npm also reads it upper-case.
	RegistryEnv = "npm_config_registry"

	// The tarball is 0.6 MiB compressed and 1.6 MiB unpacked; these bounds
	// stop a wrong or hostile response long before it costs anything.
	maxTarball  = 16 << 20
	maxUnpacked = 64 << 20
	// fetchTimeout bounds a download whose context has no deadline: a
	// registry that stops answering must not hang an engine start.
	fetchTimeout = 2 * time.Minute
)

// Registry is the registry named by the environment, else DefaultRegistry.
func Registry() string {
	for _, k := range []string{RegistryEnv, strings.ToUpper(RegistryEnv)} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return DefaultRegistry
}

// TarballURL is where a registry serves the tarball of one version (the
// layout of every npm registry for an unscoped package).
func TarballURL(registry, version string) string {
	return strings.TrimSuffix(registry, "/") + "/" + Package + "/-/" + Package + "-" + version + ".tgz"
}

// Fetch downloads the tarball at url and returns its verified Entry.
func (p Pin) Fetch(ctx context.Context, c *http.Client, url string) ([]byte, error) {
	if c == nil {
		c = &http.Client{Timeout: fetchTimeout}
		// One request per process lifetime: keep no idle connection (and
		// its goroutines) around after it. Clone keeps the proxy settings;
		// a program that replaced the default transport keeps its own.
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			t = t.Clone()
			t.DisableKeepAlives = true
			c.Transport = t
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	b, err := p.Extract(&capped{r: resp.Body, limit: maxTarball, what: "the tarball"})
	if err != nil {
		return nil, err
	}
	if err := p.Verify(b); err != nil {
		return nil, fmt.Errorf("%s: %w (nothing was written)", Entry, err)
	}
	return b, nil
}

// Extract returns Entry from a gzip'd tar stream, unverified.
func (p Pin) Extract(r io.Reader) ([]byte, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip'd tarball: %w", err)
	}
	tr := tar.NewReader(&capped{r: zr, limit: maxUnpacked, what: "the unpacked tarball"})
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("the tarball has no %s", Entry)
		}
		if err != nil {
			return nil, fmt.Errorf("read the tarball: %w", err)
		}
		if h.Name != Entry {
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s in the tarball is not a regular file", Entry)
		}
		if h.Size > MaxSize {
			return nil, fmt.Errorf("%s in the tarball is %d bytes, more than the %d allowed", Entry, h.Size, MaxSize)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("read %s from the tarball: %w", Entry, err)
		}
		return b, nil
	}
}

// capped fails a read past limit, where io.LimitReader would end the
// stream quietly and let an oversized tarball look merely truncated.
type capped struct {
	r           io.Reader
	read, limit int64
	what        string
}

func (c *capped) Read(b []byte) (int, error) {
	if c.read >= c.limit {
		// One byte more tells a stream that ends exactly at the limit
		// from one that goes on.
		if n, _ := io.ReadFull(c.r, make([]byte, 1)); n == 0 {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("%s is larger than %d bytes", c.what, c.limit)
	}
	if int64(len(b)) > c.limit-c.read {
		b = b[:c.limit-c.read]
	}
	n, err := c.r.Read(b)
	c.read += int64(n)
	return n, err
}
