package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/redact"
	"github.com/seed11a79d2d/codemode/redisstore"
	"github.com/seed11a79d2d/codemode/store"
)

// pinsPath is the pin file of a configuration file: codemode.json5 keeps
// its tool pins in codemode.pins.json beside it.
func pinsPath(configPath string) string {
	base := filepath.Base(configPath)
	if ext := filepath.Ext(base); ext != "" {
		base = strings.TrimSuffix(base, ext)
	}
	return filepath.Join(filepath.Dir(configPath), base+".pins.json")
}

// pinStore is where a command keeps tool pins: the run store's Redis when
// there is one, else the file beside the configuration; without a
// configuration (the demo catalog) pins are kept in memory.
func pinStore(configPath string, rs *redisstore.Store) store.Pins {
	switch {
	case rs != nil:
		return rs.Pins()
	case configPath != "":
		return store.NewFilePins(pinsPath(configPath))
	}
	return store.NewMemoryPins()
}

// secretEnvName is an env variable's name that says its value is a secret.
var secretEnvName = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|(^|_)KEY($|_))`)

// serverSecrets are the values of a server's configuration that are
// secrets: every header value (they carry the server's authorization), the
// env values that secretEnv names or whose names say so, and the OAuth
// client secret.
func serverSecrets(s config.MCPServer) []string {
	var out []string
	for _, v := range s.Headers {
		out = append(out, v)
		if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer x": x alone too
			out = append(out, cred)
		}
	}
	for k, v := range s.Env {
		if slices.Contains(s.SecretEnv, k) || secretEnvName.MatchString(k) {
			out = append(out, v)
		}
	}
	if s.OAuth != nil {
		out = append(out, s.OAuth.Client.ClientSecret)
	}
	return out
}

// redaction decides what redacts: whether any server's results are
// redacted (its redact key, else the top-level one), and whether cells'
// output is (the top-level key).
func redaction(f *config.File) (servers map[string]bool, cells bool) {
	servers = map[string]bool{}
	if f == nil {
		return servers, false
	}
	for _, s := range f.MCPServers {
		servers[s.Name] = f.Redact
		if s.Redact != nil {
			servers[s.Name] = *s.Redact
		}
	}
	return servers, f.Redact
}

// newRedactor is the redactor of what the configuration asks to redact,
// counted in serve's metrics; nil when nothing is.
func (so *serveSettings) newRedactor(f *config.File, secrets []string) *redact.Redactor {
	servers, cells := redaction(f)
	on := cells
	for _, v := range servers {
		on = on || v
	}
	if !on {
		return nil
	}
	if so != nil {
		secrets = append(secrets, so.secrets...)
	}
	return redact.New(redact.Options{Secrets: secrets, Count: func(kind string, n int) {
		if so != nil {
			so.metrics.Redacted(kind, n)
		}
	}})
}
