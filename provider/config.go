// Package provider runs the sub-agents of agents.run against an LLM
// provider's HTTP API: the OpenAI-compatible chat completions API (which
// local servers such as Ollama and vLLM also speak) or the Anthropic
// Messages API. It keeps token and cost budgets per cell and per session,
// retries rate limits and server errors a bounded number of times, and
// bounds what it reads. It uses net/http and encoding/json only, and does
// not import the engine or the host: the embedding program adapts it.
package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seed11a79d2d/codemode/internal/suggest"
)

// Kinds of provider API.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// defaultURL is each kind's base URL when the config gives none.
var defaultURL = map[string]string{
	OpenAI:    "https://api.openai.com/v1",
	Anthropic: "https://api.anthropic.com/v1",
}

// Config is a resolved tools.swarm.provider.
type Config struct {
	Kind string // OpenAI or Anthropic
	// URL is the API's base URL ("http://127.0.0.1:11434/v1"); the client
	// appends /chat/completions or /messages unless it already ends so.
	URL   string
	Model string
	// Models maps an agents.run label to the model its children use.
	Models map[string]string
	// KeyFile (an absolute path) or KeyEnv (a variable's name) holds the
	// API key; neither means no key, as a local server needs none. The
	// embedding program reads it (see [ReadKeyFile]).
	KeyFile, KeyEnv string
	// Timeout bounds each attempt; MaxTokens each answer; MaxRetries the
	// attempts after a 429 or 5xx.
	Timeout    time.Duration
	MaxTokens  int
	MaxRetries int
	Budget     Budget
	// Price is the cost of a million input and of a million output tokens,
	// in the operator's currency; nil when not configured.
	Price *Price
}

// Budget bounds what children may spend: tokens (input and output, as the
// provider reports them) and cost (by Price). Zero is no bound.
type Budget struct {
	CellTokens, SessionTokens int64
	CellCost, SessionCost     float64
}

// Price is per million tokens.
type Price struct {
	Input, Output float64
}

// ConfigError is a value of tools.swarm.provider that cannot be used; Field
// is its dotted path.
type ConfigError struct {
	Field, Problem string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Problem }

// intField is a whole-number key: its default and inclusive bounds.
type intField struct {
	key           string
	def, min, max int
}

var intFields = []intField{
	{"timeoutMs", 120_000, 1, 3_600_000},
	{"maxTokens", 4096, 1, 1_000_000},
	{"maxRetries", 2, 0, 8},
}

// Parse resolves tools.swarm.provider (raw, at the dotted path field): null
// or missing is nil. A value of the wrong JSON type, an unknown kind, a URL
// that is not http(s), both keyFile and keyEnv, or a cost budget without a
// price is a *ConfigError naming the field; a whole number that is not one
// takes its default and one out of bounds is clamped, each with a warning,
// as tools.codeMode's numbers are; unknown keys are warnings. A relative
// keyFile is taken from dir.
func Parse(raw json.RawMessage, field, dir string) (*Config, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	p := parser{}
	obj := p.object(raw, field)
	if p.err != nil {
		return nil, nil, p.err
	}
	c := &Config{Kind: p.str(obj, field, "kind"), URL: p.str(obj, field, "url"), Model: p.str(obj, field, "model"),
		KeyFile: p.str(obj, field, "keyFile"), KeyEnv: p.str(obj, field, "keyEnv")}
	ints := map[string]int{}
	for _, f := range intFields {
		ints[f.key] = p.int(obj, field, f)
	}
	c.Timeout = time.Duration(ints["timeoutMs"]) * time.Millisecond
	c.MaxTokens, c.MaxRetries = ints["maxTokens"], ints["maxRetries"]
	if m, ok := obj["models"]; ok {
		mo := p.object(m, field+".models")
		c.Models = map[string]string{}
		for _, label := range slices.Sorted(maps.Keys(mo)) {
			if v := p.str(mo, field+".models", label); v != "" {
				c.Models[label] = v
			} else if p.err == nil {
				p.fail(field+".models."+label, "must be a model name")
			}
		}
	}
	if b, ok := obj["budget"]; ok {
		bo := p.object(b, field+".budget")
		c.Budget = Budget{CellTokens: int64(p.num(bo, field+".budget", "cellTokens")), SessionTokens: int64(p.num(bo, field+".budget", "sessionTokens")),
			CellCost: p.num(bo, field+".budget", "cellCost"), SessionCost: p.num(bo, field+".budget", "sessionCost")}
		p.unknown(bo, field+".budget", "cellTokens", "sessionTokens", "cellCost", "sessionCost")
	}
	if pr, ok := obj["price"]; ok {
		po := p.object(pr, field+".price")
		c.Price = &Price{Input: p.num(po, field+".price", "input"), Output: p.num(po, field+".price", "output")}
		p.unknown(po, field+".price", "input", "output")
	}
	p.unknown(obj, field, "kind", "url", "model", "models", "keyFile", "keyEnv", "timeoutMs", "maxTokens", "maxRetries", "budget", "price")
	if p.err != nil {
		return nil, nil, p.err
	}
	switch {
	case c.Kind != OpenAI && c.Kind != Anthropic:
		return nil, nil, &ConfigError{field + ".kind", fmt.Sprintf("must be %q or %q", OpenAI, Anthropic)}
	case c.Model == "":
		return nil, nil, &ConfigError{field + ".model", "is required: the model children use when models names none for their label"}
	case c.KeyFile != "" && c.KeyEnv != "":
		return nil, nil, &ConfigError{field, "has both keyFile and keyEnv; give one"}
	case c.Price == nil && (c.Budget.CellCost > 0 || c.Budget.SessionCost > 0):
		return nil, nil, &ConfigError{field + ".budget", "has a cost budget but " + field + ".price is not set"}
	}
	if c.URL == "" {
		c.URL = defaultURL[c.Kind]
	}
	if problem := checkURL(c.URL, c.KeyFile != "" || c.KeyEnv != ""); problem != "" {
		return nil, nil, &ConfigError{field + ".url", problem}
	}
	if c.KeyFile != "" && !filepath.IsAbs(c.KeyFile) {
		c.KeyFile = filepath.Join(dir, c.KeyFile)
	}
	return c, p.warnings, nil
}

// checkURL allows http(s) URLs without credentials or a query; plain http
// carries a key only to a loopback host, where no one else can read it.
func checkURL(s string, keyed bool) string {
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
		return "must be an http:// or https:// URL"
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return "must not carry credentials, a query or a fragment: the key goes in keyFile or keyEnv"
	case u.Scheme == "http" && keyed && !loopback(u.Hostname()):
		return "is plain http to a host that is not loopback, so the key would cross the network in clear; use https"
	}
	return ""
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// parser collects the first error and the warnings of Parse.
type parser struct {
	err      error
	warnings []string
}

func (p *parser) fail(field, problem string) {
	if p.err == nil {
		p.err = &ConfigError{field, problem}
	}
}

// object decodes an object; null fields count as absent.
func (p *parser) object(raw json.RawMessage, field string) map[string]json.RawMessage {
	obj := map[string]json.RawMessage{}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		p.fail(field, "must be an object")
		return nil
	}
	for k, v := range obj {
		if string(bytes.TrimSpace(v)) == "null" {
			delete(obj, k)
		}
	}
	return obj
}

func (p *parser) str(obj map[string]json.RawMessage, field, key string) string {
	v, ok := obj[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		p.fail(field+"."+key, "must be a string")
	}
	return strings.TrimSpace(s)
}

func (p *parser) int(obj map[string]json.RawMessage, field string, f intField) int {
	v, ok := obj[f.key]
	name := field + "." + f.key
	if !ok {
		return f.def
	}
	var x float64
	if bytes.TrimSpace(v)[0] == '"' || json.Unmarshal(v, &x) != nil {
		p.fail(name, "must be a number")
		return f.def
	}
	switch {
	case x != math.Trunc(x) || x < 0 || x == 0 && f.min > 0:
		p.warnings = append(p.warnings, fmt.Sprintf("%s: %s is not a whole number of at least %d, using default %d", name, v, f.min, f.def))
		return f.def
	case x < float64(f.min):
		p.warnings = append(p.warnings, fmt.Sprintf("%s: %s clamped to %d", name, v, f.min))
		return f.min
	case x > float64(f.max):
		p.warnings = append(p.warnings, fmt.Sprintf("%s: %s clamped to %d", name, v, f.max))
		return f.max
	}
	return int(x)
}

// num is a budget or price: a number of at least 0, where 0 is no bound.
func (p *parser) num(obj map[string]json.RawMessage, field, key string) float64 {
	v, ok := obj[key]
	if !ok {
		return 0
	}
	var x float64
	if bytes.TrimSpace(v)[0] == '"' || json.Unmarshal(v, &x) != nil || x < 0 || x > 1e15 {
		p.fail(field+"."+key, "must be a number from 0 (no bound) to 1e15")
	}
	return x
}

func (p *parser) unknown(obj map[string]json.RawMessage, field string, known ...string) {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(known, k) {
			msg := field + "." + k + ": unknown key ignored"
			if near := suggest.Closest(k, slices.Values(known)); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			p.warnings = append(p.warnings, msg)
		}
	}
}
