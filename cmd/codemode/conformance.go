package main

import (
	"context"
	"fmt"
	"io"

	"github.com/seed11a79d2d/codemode/engines/conformance"
)

// conformanceCommand runs the shared conformance table on this binary's
// engines (bare: the bridge without the host's guest API, as the table
// expects) and prints engines × cases with a summary line.
func conformanceCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("conformance", "[--engine NAME] [--json]", stderr)
	only := fs.String("engine", "", "check only this engine: "+engineNames()+" (default: all of them)")
	asJSON := fs.Bool("json", false, "print the results as one JSON document")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "conformance", "takes no arguments")
	}
	names := sortedEngines()
	if *only != "" {
		name, err := pickEngine(*only, "")
		if err != nil {
			return usageError(stderr, "conformance", "%v", err)
		}
		names = []string{name}
	}
	logger := newLogger(stderr, quietLevel())
	var results []conformance.Result
	for _, name := range names {
		k := engines[name]
		eng, err := k.start(ctx, "", nil, logger)
		if err != nil {
			fmt.Fprintf(stderr, "codemode conformance: start %s: %v\n", name, err)
			return exitFailed
		}
		res, err := conformance.Check(ctx, k.table, eng)
		eng.Close(context.WithoutCancel(ctx))
		if err != nil {
			fmt.Fprintf(stderr, "codemode conformance: %v\n", err)
			return exitFailed
		}
		results = append(results, res...)
	}
	if err := conformance.WriteReport(stdout, results, *asJSON); err != nil {
		fmt.Fprintf(stderr, "codemode conformance: %v\n", err)
		return exitFailed
	}
	if _, failed, _ := conformance.Summary(results); failed > 0 {
		return exitFailed
	}
	return exitOK
}
