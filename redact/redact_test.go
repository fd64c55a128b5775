package redact_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/redact"
)

type corpusLine struct {
	Comment string `json:"comment"`
	Kind    string `json:"kind"`
	Secret  string `json:"secret"`
	Text    string `json:"text"`
}

func readCorpus(t testing.TB, name string) []corpusLine {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l corpusLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.Comment == "" {
			out = append(out, l)
		}
	}
	return out
}

// Every fake secret of the corpus is replaced by its kind's marker, in text
// and inside JSON (where a PEM block's line breaks are escapes), and counted.
func TestCorpusCaught(t *testing.T) {
	lines := readCorpus(t, "secrets.jsonl")
	if len(lines) < 20 {
		t.Fatalf("%d secrets in the corpus; it needs at least 20", len(lines))
	}
	counts := map[string]int{}
	x := redact.New(redact.Options{Count: func(k string, n int) { counts[k] += n }})
	for _, l := range lines {
		got := x.String(l.Text)
		if strings.Contains(got, l.Secret) || !strings.Contains(got, redact.Marker(l.Kind)) {
			t.Errorf("%s: %q\n  became %q", l.Kind, l.Text, got)
		}
		js, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": l.Text}}})
		if out := x.JSON(js); strings.Contains(string(out), l.Secret) || !json.Valid(out) {
			t.Errorf("%s in JSON: %s", l.Kind, out)
		}
	}
	if counts["github-token"] < 3 || counts["private-key"] < 2 {
		t.Errorf("counts: %v", counts)
	}
	for k := range counts {
		if !contains(redact.Kinds(), k) {
			t.Errorf("kind %q is not in Kinds", k)
		}
	}
}

// Look-alikes pass unchanged: ids, hashes, prefixes named in prose, public
// keys and certificates, URLs without credentials.
func TestCorpusLetThrough(t *testing.T) {
	lines := readCorpus(t, "lookalikes.jsonl")
	if len(lines) < 20 {
		t.Fatalf("%d look-alikes in the corpus; it needs at least 20", len(lines))
	}
	x := redact.New(redact.Options{Count: func(k string, n int) { t.Errorf("counted %d %s", n, k) }})
	for _, l := range lines {
		if got := x.String(l.Text); got != l.Text {
			t.Errorf("a look-alike changed: %q\n  became %q", l.Text, got)
		}
		js, _ := json.Marshal(l.Text)
		if got := x.JSON(js); string(got) != string(js) {
			t.Errorf("a look-alike changed in JSON: %s -> %s", js, got)
		}
	}
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// The configuration's own secrets go wherever they appear; short values
// are not secrets and stay.
func TestConfiguredSecrets(t *testing.T) {
	x := redact.New(redact.Options{Secrets: []string{"op-secret-of-the-config", "short", "op-secret"}})
	got := x.String("a op-secret-of-the-config b short c op-secret d")
	want := "a [REDACTED:config-secret] b short c [REDACTED:config-secret] d"
	if got != want {
		t.Fatalf("got %q", got)
	}
	// Spelled with JSON escapes, a secret is still found.
	if out := x.JSON([]byte(`{"v":"\u006fp-secret-of-the-config"}`)); strings.Contains(string(out), "secret-of") {
		t.Fatalf("an escaped secret got through: %s", out)
	}
	var nilX *redact.Redactor
	if nilX.String("op-secret-of-the-config") != "op-secret-of-the-config" {
		t.Fatal("a nil Redactor changed text")
	}
}

// JSON comes back unchanged, byte for byte, when nothing matched, and as
// valid JSON with numbers intact when something did.
func TestJSON(t *testing.T) {
	x := redact.New(redact.Options{})
	in := []byte(`{"b": 1, "a": [12345678901234567890, "x\n"]}`)
	if out := x.JSON(in); string(out) != string(in) {
		t.Fatalf("unchanged JSON was rewritten: %s", out)
	}
	in = []byte(`{"n": 12345678901234567890, "k": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}`)
	out := x.JSON(in)
	if string(out) != `{"k":"[REDACTED:github-token]","n":12345678901234567890}` {
		t.Fatalf("got %s", out)
	}
	// Not JSON: redacted as text.
	if out := x.JSON([]byte(`not json ghp_abcdefghijklmnopqrstuvwxyz0123456789`)); strings.Contains(string(out), "ghp_a") {
		t.Fatalf("got %s", out)
	}
	v, changed := x.Value(map[string]any{"a": []any{"ok", json.RawMessage(`"ghp_abcdefghijklmnopqrstuvwxyz0123456789"`)}})
	if b, _ := json.Marshal(v); !changed || strings.Contains(string(b), "ghp_a") {
		t.Fatalf("Value: %s %v", b, changed)
	}
}
