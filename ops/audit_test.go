package ops

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trail writes n records to a new file and returns its path and lines.
func trail(t *testing.T, n int) (string, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	a, err := OpenAudit(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		kind := "call"
		if i%3 == 2 {
			kind = "exec"
		}
		if err := a.Append(Record{Kind: kind, Session: "mcp_1", Tool: "core.add", ArgsSHA256: Digest([]byte{byte(i)})}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return path, strings.SplitAfter(string(b), "\n")[:n]
}

func verify(t *testing.T, text string) (int, error) {
	t.Helper()
	n, _, err := VerifyAudit(strings.NewReader(text))
	return n, err
}

func lineOf(t *testing.T, err error) int {
	t.Helper()
	var ce *ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("want a ChainError, got %v", err)
	}
	return ce.Line
}

func TestAuditChainVerifies(t *testing.T) {
	path, lines := trail(t, 6)
	// Reopening continues the chain.
	a, err := OpenAudit(path)
	if err != nil {
		t.Fatal(err)
	}
	a.Append(Record{Kind: "wait", Session: "mcp_1", Run: "run_1"})
	a.Close()
	b, _ := os.ReadFile(path)
	n, head, err := VerifyAudit(bytes.NewReader(b))
	if err != nil || n != len(lines)+1 {
		t.Fatalf("verify: %d records, %v", n, err)
	}
	last := strings.SplitAfter(string(b), "\n")[n-1]
	if head != Digest([]byte(strings.TrimSuffix(last, "\n"))) {
		t.Fatal("head is not the digest of the last line")
	}
	if n, err := verify(t, ""); n != 0 || err != nil {
		t.Fatalf("empty trail: %d, %v", n, err)
	}
}

func TestAuditTamperedLine(t *testing.T) {
	_, lines := trail(t, 6)
	edited := append([]string{}, lines...)
	edited[2] = strings.Replace(edited[2], `"status"`, `"status"`, 1)
	edited[2] = strings.Replace(edited[2], `"session":"mcp_1"`, `"session":"mcp_2"`, 1)
	if _, err := verify(t, strings.Join(edited, "")); lineOf(t, err) != 3 {
		t.Fatalf("edited line 3: %v", err)
	}
	// Editing the first line is found too.
	edited = append([]string{}, lines...)
	edited[0] = strings.Replace(edited[0], "core.add", "core.sub", 1)
	if _, err := verify(t, strings.Join(edited, "")); lineOf(t, err) != 1 {
		t.Fatalf("edited line 1: %v", err)
	}
	// A line that is no record at all.
	edited = append([]string{}, lines...)
	edited[4] = "{\"seq\":5,\"extra\":true}\n"
	if _, err := verify(t, strings.Join(edited, "")); lineOf(t, err) != 5 {
		t.Fatalf("foreign line 5: %v", err)
	}
}

func TestAuditDeletedLine(t *testing.T) {
	_, lines := trail(t, 6)
	cut := append(append([]string{}, lines[:3]...), lines[4:]...) // line 4 gone
	if _, err := verify(t, strings.Join(cut, "")); lineOf(t, err) != 4 || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("deleted line 4: %v", err)
	}
	if _, err := verify(t, strings.Join(lines[1:], "")); lineOf(t, err) != 1 {
		t.Fatalf("deleted line 1: %v", err)
	}
}

func TestAuditTruncatedLastLine(t *testing.T) {
	path, lines := trail(t, 4)
	whole := strings.Join(lines, "")
	cut := whole[:len(whole)-20]
	if n, err := verify(t, cut); n != 3 || lineOf(t, err) != 4 {
		t.Fatalf("truncated: %d records, %v", n, err)
	}
	// Serve refuses to append to it: the break would be hidden.
	os.WriteFile(path, []byte(cut), 0o600)
	if _, err := OpenAudit(path); err == nil || !strings.Contains(err.Error(), "partial line") {
		t.Fatalf("open a truncated trail: %v", err)
	}
	os.WriteFile(path, []byte("not a record\n"), 0o600)
	if _, err := OpenAudit(path); err == nil {
		t.Fatal("opened a trail whose last line is not a record")
	}
}

func TestAuditOneWriterPerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	a, err := OpenAudit(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if b, err := OpenAudit(path); err == nil {
		b.Close()
		t.Fatal("a second writer opened the trail")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("trail mode %v", st.Mode().Perm())
	}
}
