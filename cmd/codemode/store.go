package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/mcpserve"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/redisstore"
)

// storeKeyEnv names the environment variable that carries the run store's
// signing key when no key file is given.
const storeKeyEnv = "CODEMODE_STORE_KEY"

// serveSettings are serve's flags that shape the runtime.
type serveSettings struct {
	store     *config.Store // --store, over the file's store key
	stateless bool
	// The operating surface (operate.go): its decision hooks, metrics and
	// the redaction of secrets from the log.
	observer *mcpserve.Observer
	metrics  *ops.Metrics
	redactor *ops.Redactor
	secrets  []string // what secret was told, for the redaction of results
}

// runStore is the store serve uses: --store, else the file's key, else none.
func (so *serveSettings) runStore(f *config.File) *config.Store {
	switch {
	case so != nil && so.store != nil:
		return so.store
	case f != nil:
		return f.Store
	}
	return nil
}

// openStore connects serve's run store: the Redis at spec.URL, signing
// with the key of spec.KeyFile or $CODEMODE_STORE_KEY, which so keeps out
// of the log.
func openStore(ctx context.Context, spec *config.Store, so *serveSettings) (*redisstore.Store, error) {
	key, source := envStoreKey.value, "$"+storeKeyEnv
	if spec.KeyFile != "" {
		b, err := os.ReadFile(spec.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("%w: run store key: %w", errConfig, err)
		}
		key, source = string(b), spec.KeyFile
	}
	key = strings.TrimRight(key, "\r\n")
	so.secret(key)
	if len(key) < redisstore.MinKeyBytes {
		return nil, fmt.Errorf("%w: run store key from %s has %d bytes; it needs at least %d (for example: openssl rand -hex 32 > store.key; chmod 600 store.key)",
			errConfig, source, len(key), redisstore.MinKeyBytes)
	}
	s, err := redisstore.New(ctx, redisstore.Options{URL: spec.URL, Key: []byte(key), MaxRuns: spec.MaxRuns})
	if err != nil {
		return nil, err
	}
	return s, nil
}
