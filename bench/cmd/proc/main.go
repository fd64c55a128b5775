// Command proc runs a command again and again and reports the median wall
// time and peak resident set of its runs: the whole-process cost of, say,
// `codemode exec -e 'return 1'`, which no in-process benchmark sees.
//
//	go run ./bench/cmd/proc [-n 10] [-warmup 3] -- ./codemode exec -e 'return 1'
//
// Warm-up runs come first and are not counted (they fill the compilation
// and template caches). Peak RSS is the child's ru_maxrss from wait4: the
// largest resident set of the process (and of any descendant it waited for).
// The command's output is discarded; a run that exits non-zero is reported
// and, unless -allow-fail, stops the measurement.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("proc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10, "measured runs")
	warmup := fs.Int("warmup", 3, "runs before the measured ones, not counted")
	allowFail := fs.Bool("allow-fail", false, "count runs that exit non-zero (a cell that fails at its limit still exits 1)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 || *n < 1 || *warmup < 0 {
		fmt.Fprintln(stderr, "usage: proc [-n 10] [-warmup 3] [-allow-fail] -- COMMAND [ARG...]")
		return 2
	}
	var walls []time.Duration
	var rss []int64
	for i := range *warmup + *n {
		wall, maxrss, err := once(argv)
		if err != nil && !(*allowFail && isExit(err)) {
			fmt.Fprintf(stderr, "proc: run %d: %v\n", i+1, err)
			return 1
		}
		if i >= *warmup {
			walls = append(walls, wall)
			rss = append(rss, maxrss)
		}
	}
	fmt.Fprintf(stdout, "%d runs of %q\n", *n, argv)
	fmt.Fprintf(stdout, "wall     median %v  min %v  max %v\n", median(walls).Round(100*time.Microsecond),
		slices.Min(walls).Round(100*time.Microsecond), slices.Max(walls).Round(100*time.Microsecond))
	fmt.Fprintf(stdout, "peak RSS median %s  min %s  max %s\n", mib(median(rss)), mib(slices.Min(rss)), mib(slices.Max(rss)))
	return 0
}

// once runs argv and returns its wall time and ru_maxrss in bytes.
func once(argv []string) (time.Duration, int64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if cmd.ProcessState == nil {
		return 0, 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, fmt.Errorf("no rusage on this system")
	}
	return wall, ru.Maxrss << 10, err // Linux reports KiB
}

func isExit(err error) bool {
	_, ok := err.(*exec.ExitError)
	return ok
}

func median[T int64 | time.Duration](vs []T) T {
	s := slices.Sorted(slices.Values(vs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
