package source

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// smallStack is the most stack esbuild may need for a cell the bound
// accepts: 1/64 of what Go allows by default (1e9 bytes, so 512 MiB once
// stacks double).
const smallStack = 8 << 20

// runEsbuild runs what Check would run on code: the shell check's parse for
// JavaScript, the transform for TypeScript.
func runEsbuild(code string, ts bool) {
	if ts {
		transformTypeScript(code, here)
	} else {
		parses(code, false, here)
	}
}

// deepestAccepted is the largest n for which the bound accepts s.code(n)
// as TypeScript or not as ts says.
func deepestAccepted(s shape, ts bool) int {
	lo, hi := 0, 2*MaxNesting+2 // every shape nests at least one level per n
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if checkBounds(s.code(mid), ts) == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestBoundKeepsEsbuildStackSmall runs esbuild, in a child process whose
// goroutines may grow only to smallStack, on every shape at the deepest the
// bound accepts. An overflow there is fatal, so it happens in the child, and
// this test fails with its output.
func TestBoundKeepsEsbuildStackSmall(t *testing.T) {
	if os.Getenv("SOURCE_TEST_SMALL_STACK") == "1" {
		debug.SetMaxStack(smallStack)
		for _, s := range shapes {
			langs := []bool{false, true} // the JavaScript shapes are TypeScript too
			if s.ts {
				langs = []bool{true}
			}
			for _, ts := range langs {
				n := deepestAccepted(s, ts)
				if n < MaxNesting/3 {
					t.Errorf("%s: only %d levels accepted", s.name, n)
				}
				runEsbuild(s.code(n), ts)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBoundKeepsEsbuildStackSmall$", "-test.v")
	cmd.Env = append(os.Environ(), "SOURCE_TEST_SMALL_STACK=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		if i := strings.Index(string(out), "fatal error"); i >= 0 {
			out = out[i:min(len(out), i+2000)]
		}
		t.Fatalf("child process: %v\n%s", err, out)
	}
}

// TestEsbuildNestingLimits measures, for each shape, the depth at which
// esbuild overflows a 64 MiB stack, in child processes, and reports it with
// the depth that would overflow Go's default (8 times more: the stack
// overflows once doubling would pass 1e9 bytes, at 512 MiB). It takes
// minutes, so it runs only with CODEMODE_MEASURE_ESBUILD=1. Depths where
// esbuild takes longer than 10 seconds are reported as such: the nested
// same-named functions get there first.
func TestEsbuildNestingLimits(t *testing.T) {
	if n := os.Getenv("SOURCE_TEST_MEASURE"); n != "" {
		i, _ := strconv.Atoi(os.Getenv("SOURCE_TEST_SHAPE"))
		depth, _ := strconv.Atoi(n)
		debug.SetMaxStack(64 << 20)
		runEsbuild(shapes[i].code(depth), shapes[i].ts || os.Getenv("SOURCE_TEST_TS") == "1")
		return
	}
	if os.Getenv("CODEMODE_MEASURE_ESBUILD") != "1" {
		t.Skip("set CODEMODE_MEASURE_ESBUILD=1 to measure (minutes)")
	}
	for i, s := range shapes {
		for _, ts := range []bool{false, true} {
			if s.ts && !ts {
				continue
			}
			tsEnv := "SOURCE_TEST_TS=0"
			if ts {
				tsEnv = "SOURCE_TEST_TS=1"
			}
			var why string
			overflows := func(n int) bool {
				cmd := exec.Command(os.Args[0], "-test.run=^TestEsbuildNestingLimits$", "-test.timeout=10s")
				cmd.Env = append(os.Environ(), "SOURCE_TEST_MEASURE="+strconv.Itoa(n), "SOURCE_TEST_SHAPE="+strconv.Itoa(i), tsEnv)
				out, err := cmd.CombinedOutput()
				switch {
				case err == nil:
					return false
				case strings.Contains(string(out), "stack overflow"):
					why = fmt.Sprintf("overflows 64 MiB at %d levels (so the default stack at about %d)", n, 8*n)
				case strings.Contains(string(out), "timed out"):
					why = fmt.Sprintf("takes over 10 s at %d levels", n)
				default:
					t.Fatalf("%s at %d: %v\n%.500s", s.name, n, err, out)
				}
				return true
			}
			lo, hi := 0, 0
			for n := 1024; n <= 1<<22; n *= 2 {
				if overflows(n) {
					hi = n
					break
				}
				lo = n
			}
			if hi == 0 {
				t.Logf("%-28s %-10s no overflow up to %d", s.name, language(ts), lo)
				continue
			}
			for hi-lo > lo/16 {
				if mid := (lo + hi) / 2; overflows(mid) {
					hi = mid
				} else {
					lo = mid
				}
			}
			overflows(hi) // why for hi itself
			t.Logf("%-24s %-10s %s; the bound accepts %d", s.name, language(ts), why, deepestAccepted(s, ts))
		}
	}
}
