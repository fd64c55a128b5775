package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
)

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fenced returns the body of the first ```lang block after heading.
func fenced(t *testing.T, doc, heading, lang string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, heading)
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, body, ok := strings.Cut(after, "```"+lang+"\n")
	if !ok {
		t.Fatalf("README has no ```%s block after %q", lang, heading)
	}
	body, _, _ = strings.Cut(body, "```")
	return body
}

// The README's Go snippet is the compiled example in host, line for line.
func TestREADMEGoSnippet(t *testing.T) {
	snippet := fenced(t, readRepoFile(t, "README.md"), "## Embedding in Go", "go")
	source := readRepoFile(t, "host/example_test.go")
	if !strings.Contains(source, snippet) {
		t.Errorf("the README's Go snippet is not in host/example_test.go verbatim; copy Example from there:\n%s", snippet)
	}
}

// The README's config is examples/codemode.json5, which loads without
// warnings.
func TestREADMEConfig(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	example := readRepoFile(t, "examples/codemode.json5")
	if got := fenced(t, readme, "## In front of your own MCP servers", "json5"); got != example {
		t.Errorf("the README's config differs from examples/codemode.json5")
	}
	f, err := config.Parse("examples/codemode.json5", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) > 0 || len(f.MCPServers) != 2 || f.Plugins["demo"] || f.Plugins["tracker"] {
		t.Errorf("examples/codemode.json5 = %+v", f)
	}
	if !strings.Contains(readme, "make demo ") || !strings.Contains(readme, "make test ") {
		t.Error("the README's quick start lacks make demo or make test")
	}
}
