package redact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/redact"
)

// adversarial are 10 MB inputs built to make a matcher work: every rule's
// keys over and over, starts of matches that never finish, a BEGIN line
// whose END never comes. RE2 keeps each pass linear; the private-key scan
// looks for END lines once. Each must finish (the test's deadline is the
// guard: durations are the benchmark's) and leave no secret behind.
func adversarial() map[string]string {
	const size = 10 << 20
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1)[:size] }
	return map[string]string{
		"pem-begins":      fill("-----BEGIN RSA PRIVATE KEY-----\n"),
		"pem-no-end":      "-----BEGIN PRIVATE KEY-----\n" + fill("QUFB\n"),
		"pem-end-far":     "-----BEGIN PRIVATE KEY-----\n" + fill("not base64 at all! ") + "-----END PRIVATE KEY-----",
		"aws-prefixes":    fill("AKIAASIA"),
		"aws-secret-near": fill("aws secret = "),
		"jwt-parts":       fill("eyJaaaaaaaaaaa.eyJ."),
		"userinfo":        fill("https://a:b"),
		"query-tokens":    fill("?token=&key=x"),
		"bearer":          fill("Bearer Bearer "),
		"azure-tilde":     fill("aaa1Q~"),
		"letters":         fill("A"),
		"sk-dashes":       fill("sk-ant-api03-sk-proj-"),
	}
}

func TestAdversarialInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("10 MB inputs")
	}
	x := redact.New(redact.Options{Secrets: []string{"configured-secret-value"}})
	for name, in := range adversarial() {
		out := x.String(in)
		if strings.Contains(in, "BEGIN RSA PRIVATE KEY") && strings.Contains(out, "BEGIN RSA PRIVATE KEY") {
			t.Errorf("%s: a BEGIN line survived", name)
		}
		if name == "pem-end-far" && strings.Contains(out, "not base64") && !strings.HasPrefix(out, "[REDACTED:private-key]") {
			t.Errorf("%s: the block was not redacted", name)
		}
		if len(out) > 3*len(in) {
			t.Errorf("%s: %d bytes became %d", name, len(in), len(out))
		}
	}
}

// A configured secret a million times over, and as a string inside JSON
// nested past what encoding/json decodes: the first all goes, the second is
// redacted as text.
func TestHostileRepetitionAndDepth(t *testing.T) {
	x := redact.New(redact.Options{Secrets: []string{"configured-secret-value"}})
	in := strings.Repeat("configured-secret-value,", 1<<20/24)
	if out := x.String(in); strings.Contains(out, "configured") {
		t.Fatal("a repeated secret survived")
	}
	deep := strings.Repeat("[", 20000) + `"configured-secret-value"` + strings.Repeat("]", 20000)
	if out := x.JSON([]byte(deep)); strings.Contains(string(out), "configured") {
		t.Fatal("a secret in deep JSON survived")
	}
	// A secret split by a JSON escape is still one secret once decoded.
	js, _ := json.Marshal("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	esc := strings.Replace(string(js), "ghp_", `gh\u0070_`, 1)
	if out := x.JSON([]byte(esc)); strings.Contains(string(out), "abcdefghij") {
		t.Fatalf("an escaped token got through: %s", out)
	}
	// Invalid UTF-8 around a token neither hides it nor breaks the output.
	bad := "\xff\xfeghp_abcdefghijklmnopqrstuvwxyz0123456789\xff"
	if out := x.String(bad); strings.Contains(out, "abcdefghij") {
		t.Fatalf("got %q", out)
	}
}
