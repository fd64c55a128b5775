package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// conformanceClientGiveUp are the client scenarios whose client is meant to
// give up (the suite's allowClientError): the client waits for tools that
// never come. It only orders the runs, slow ones first; whether a client's
// exit status counts is the suite's to say.
var conformanceClientGiveUp = map[string]bool{
	"auth/scope-retry-limit": true, // 403 insufficient_scope on every retry
	"auth/resource-mismatch": true, // the resource metadata names another server
}

// conformanceClientWorkers bounds how many auth scenarios run at once. The
// other scenarios run one at a time: sse-retry measures the client's
// reconnection delay against a 200 ms tolerance, which a loaded machine
// misses.
const conformanceClientWorkers = 8

// TestConformanceClient runs the official MCP conformance suite's client
// scenarios against the real codemode binary as a drop-in proxy: for each
// scenario the suite starts a test server and runs
// testdata/conformance-client.mjs, an upstream MCP client (the TypeScript SDK)
// that starts `codemode serve` with the test server as its only MCP server
// and calls that server's tools from exec cells. Each scenario is one suite
// run with testdata/conformance-client-baseline.yml as --expected-failures,
// so a scenario fails the test when it fails unlisted or passes listed. A
// scenario that is not listed also fails when the suite's own verdict is
// OVERALL: FAILED although its checks pass: the client application exited
// non-zero or timed out where the scenario does not allow it (with a
// baseline, the suite's exit status counts the checks only).
func TestConformanceClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs the conformance suite")
	}
	node, modules := peers(t)
	suite := filepath.Join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js")
	driver, _ := filepath.Abs("testdata/conformance-client.mjs")
	baseline, _ := filepath.Abs("testdata/conformance-client-baseline.yml")
	// The suite splits --command at spaces and runs it with a shell.
	command := node + " " + driver
	if !regexp.MustCompile(`^[A-Za-z0-9_./+=@:-]+ [A-Za-z0-9_./+=@:-]+$`).MatchString(command) {
		t.Fatalf("the suite runs --command through a shell split at spaces; this path does not survive that: %q", command)
	}

	bin := buildCommand(t)
	env := append(os.Environ(), "NO_COLOR=1", "CODEMODE_BIN="+bin, "CODEMODE_PEERS="+modules, "TMPDIR="+t.TempDir())

	list, err := exec.Command(node, suite, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, list)
	}
	scenarios := conformanceClientScenarios(string(list))
	if len(scenarios) == 0 {
		t.Fatalf("conformance list names no client scenario:\n%s", list)
	}
	listed := conformanceClientBaseline(t, baseline)
	for name := range listed {
		if !slices.Contains(scenarios, name) {
			t.Errorf("%s lists %q, which is no client scenario of the suite", filepath.Base(baseline), name)
		}
	}

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	outDir := t.TempDir()
	results := make(map[string]conformanceClientRun, len(scenarios))
	var mu sync.Mutex
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m") // the suite colours its output whatever NO_COLOR says
	runOne := func(name string) {
		cmd := exec.CommandContext(ctx, node, suite, "client", "--command", command, "--scenario", name,
			"--expected-failures", baseline, "--timeout", "90000", "-o", outDir)
		cmd.Env = env
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.CombinedOutput()
		mu.Lock()
		results[name] = conformanceClientRun{out: ansi.ReplaceAllString(string(out), ""), err: err}
		mu.Unlock()
	}
	var auth []string
	for _, name := range scenarios {
		if strings.HasPrefix(name, "auth/") {
			auth = append(auth, name)
		} else {
			runOne(name)
		}
	}
	// The scenarios whose server is not expected to let codemode in take
	// longest (the client waits for tools that never come): start them first.
	slices.SortStableFunc(auth, func(a, b string) int {
		slow := func(name string) bool { return listed[name] || conformanceClientGiveUp[name] }
		switch {
		case slow(a) && !slow(b):
			return -1
		case slow(b) && !slow(a):
			return 1
		}
		return 0
	})
	work := make(chan string)
	var wg sync.WaitGroup
	for range conformanceClientWorkers {
		wg.Go(func() {
			for name := range work {
				runOne(name)
			}
		})
	}
	for _, name := range auth {
		work <- name
	}
	close(work)
	wg.Wait()

	for _, name := range scenarios {
		t.Run(name, func(t *testing.T) {
			r := results[name]
			switch {
			case r.err != nil:
				t.Errorf("conformance client --scenario %s: %v (an unlisted failure, or a listed scenario that passes)\n%s%s",
					name, r.err, r.out, r.details())
			case !listed[name] && r.clientFailed():
				t.Errorf("the checks pass, but the suite's verdict is OVERALL: FAILED: the client application exited non-zero or timed out\n%s%s", r.out, r.details())
			case listed[name]:
				t.Logf("fails as the baseline expects%s", r.details())
			}
		})
	}
}

// conformanceClientRun is one suite run of one scenario: its combined
// output and exit status.
type conformanceClientRun struct {
	out string
	err error
}

// clientFailed tells whether the suite's own verdict on the run failed it:
// a failed or warning check, a client timeout, or a non-zero exit of the
// client application that the scenario does not allow.
func (r conformanceClientRun) clientFailed() bool {
	return strings.Contains(r.out, "OVERALL: FAILED")
}

// details lists the checks of the run that did not succeed, read from the
// checks.json the suite saved.
func (r conformanceClientRun) details() string {
	m := regexp.MustCompile(`(?m)^Results saved to (.+)$`).FindStringSubmatch(r.out)
	if m == nil {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(m[1]), "checks.json"))
	if err != nil {
		return "\n(no checks.json: " + err.Error() + ")"
	}
	var checks []struct {
		ID, Status, Description, ErrorMessage string
		Details                               json.RawMessage
	}
	if err := json.Unmarshal(data, &checks); err != nil {
		return "\n(checks.json: " + err.Error() + ")"
	}
	var b strings.Builder
	for _, c := range checks {
		if c.Status == "SUCCESS" || c.Status == "INFO" {
			continue
		}
		fmt.Fprintf(&b, "\n  %s %s: %s", c.Status, c.ID, c.Description)
		if c.ErrorMessage != "" {
			fmt.Fprintf(&b, ": %s", c.ErrorMessage)
		}
		if len(c.Details) > 0 {
			fmt.Fprintf(&b, " %s", c.Details)
		}
	}
	return b.String()
}

// conformanceClientScenarios reads the client scenarios from the output of
// `conformance list`: the "  - NAME [VERSIONS]" lines after "Client
// scenarios".
func conformanceClientScenarios(list string) []string {
	var names []string
	in := false
	item := regexp.MustCompile(`^\s+- (\S+)`)
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasSuffix(strings.TrimSpace(line), "scenarios (test against a client):") {
			in = true
			continue
		}
		if strings.HasSuffix(strings.TrimSpace(line), "):") {
			in = false
		}
		if m := item.FindStringSubmatch(line); in && m != nil {
			names = append(names, m[1])
		}
	}
	return names
}

// conformanceClientBaseline reads the scenario names of the baseline's
// client list, and requires each to follow a comment giving its reason.
func conformanceClientBaseline(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	inClient, reason := false, false
	item := regexp.MustCompile(`^\s+- (\S+)\s*$`)
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || !strings.HasPrefix(line, " ") && strings.HasPrefix(trimmed, "#"):
		case !strings.HasPrefix(line, " "):
			inClient, reason = trimmed == "client:", false
		case strings.HasPrefix(trimmed, "#"):
			reason = true
		case inClient && item.MatchString(line):
			name := item.FindStringSubmatch(line)[1]
			if !reason {
				t.Errorf("%s:%d: %s has no reason (a comment line above it)", filepath.Base(path), i+1, name)
			}
			names[name], reason = true, false
		default:
			t.Errorf("%s:%d: not a client scenario entry: %q", filepath.Base(path), i+1, line)
		}
	}
	return names
}
