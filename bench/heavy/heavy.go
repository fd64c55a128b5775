// Package heavy holds the cells of the memory measurements (bench/RESULTS.md,
// "Memory"): each drives a cell to its 64 MiB heap limit in a different way.
// Run one with `codemode exec bench/heavy/NAME.js`; cmd/servemem runs them
// in a serve process.
package heavy

import (
	"embed"
	"strings"
)

//go:embed *.js
var files embed.FS

// Names lists the cells, without .js.
var Names = []string{"stringify", "eval", "tostring"}

// Source returns the code of the cell name.
func Source(name string) (string, bool) {
	b, err := files.ReadFile(name + ".js")
	if err != nil || strings.Contains(name, "/") {
		return "", false
	}
	return string(b), true
}
