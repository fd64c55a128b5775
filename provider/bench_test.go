package provider

import (
	"context"
	"testing"
)

// BenchmarkRunLoopback is one child's cost in the client against a fake
// on loopback: encoding, the ledger, one HTTP round trip, decoding.
func BenchmarkRunLoopback(b *testing.B) {
	for _, kind := range []string{OpenAI, Anthropic} {
		b.Run(kind, func(b *testing.B) {
			f := newFake(b, kind, step{text: "the answer", in: 10, out: 3})
			cfg := Config{Kind: kind, URL: f.srv.URL, Model: "m", Timeout: 30e9, MaxTokens: 100, Budget: Budget{SessionTokens: 1 << 60}}
			c, err := New(&cfg, "k", nil)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			req := ask("summarize the release notes")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Run(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
