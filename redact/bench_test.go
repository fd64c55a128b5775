package redact_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/redact"
)

// typical is 1 MiB of what tools return: JSON listings and log lines, with
// ids, URLs and hashes that look like secrets, and one real-shaped secret
// every 64 KiB.
func typical() string {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `{"id":"ISSUE-%d","title":"Fix the login page (see https://example.com/pr/%d?tab=files)","sha":"3f786850e387550fdab836ed7e6dc881de23001b","state":"open","labels":["bug","p2"]}`+"\n", i, i)
		if i%300 == 0 {
			b.WriteString("2026-12-04T03:00:00Z INFO using token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n")
		}
	}
	return b.String()
}

// BenchmarkString is the cost per MB (see bench/RESULTS.md): typical tool
// output, text that holds no rule's key, and the worst of the 10 MB
// adversarial inputs.
func BenchmarkString(b *testing.B) {
	x := redact.New(redact.Options{Secrets: []string{"configured-secret-value", "another-configured-one"}})
	cases := map[string]string{
		"typical": typical(),
		"clean":   strings.Repeat("The quick brown fox jumps over the lazy dog. 0123456789\n", 1<<20/56),
	}
	for name, in := range adversarial() {
		cases["adversarial/"+name] = in
	}
	for name, in := range cases {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				x.String(in)
			}
		})
	}
}

// BenchmarkJSON is typical output as an MCP result's JSON.
func BenchmarkJSON(b *testing.B) {
	x := redact.New(redact.Options{})
	in := []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, typical()))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		x.JSON(in)
	}
}
