package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func TestRunReportsMedians(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-n", "3", "-warmup", "1", "--", sh, "-c", "exit 0"}, &out, &errb); code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	for _, want := range []string{"3 runs of", "wall     median", "peak RSS median"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestFailingCommand: a run that exits non-zero stops the measurement
// unless -allow-fail says such runs count; a missing command always stops it.
func TestFailingCommand(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-n", "1", "-warmup", "0", "--", sh, "-c", "exit 3"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "exit status 3") {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	if code := run([]string{"-n", "1", "-warmup", "0", "-allow-fail", "--", sh, "-c", "exit 3"}, &out, &errb); code != 0 {
		t.Fatalf("-allow-fail: code %d", code)
	}
	if code := run([]string{"-n", "1", "-allow-fail", "--", "/nonexistent/command"}, &out, &errb); code != 1 {
		t.Fatalf("missing command: code %d", code)
	}
	if code := run([]string{"-n", "0", "--", sh}, &out, &errb); code != 2 {
		t.Fatalf("-n 0: code %d", code)
	}
}
