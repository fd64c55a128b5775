package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/catalog"
	"github.com/seed11a79d2d/codemode/host"
)

const catalogSynopsis = "[--config FILE] [--json] [--search QUERY] [--dts]"

// catalogListing is the --json form of the catalog command.
type catalogListing struct {
	CodeMode   bool                   `json:"codeMode"`
	ToolSearch bool                   `json:"toolSearch"`
	Visible    []host.ToolDefinition  `json:"visible"`
	Catalog    []catalog.Compact      `json:"catalog"`
	Search     *catalogSearch         `json:"search,omitempty"`
	APIFiles   []catalogAPIFileListed `json:"apiFiles,omitempty"`
}

type catalogSearch struct {
	Query string            `json:"query"`
	Hits  []catalog.Compact `json:"hits"`
}

type catalogAPIFileListed struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func catalogCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("catalog", catalogSynopsis, stderr)
	configPath := fs.String("config", "", "JSON5 configuration `file` (default: the demo catalog)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	query := fs.String("search", "", "rank the hidden catalog against `QUERY` as tools.search does, and print the hits")
	dts := fs.Bool("dts", false, "print the MCP declaration files (API.read) instead")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) > 0 {
		return usageError(stderr, "catalog", "unexpected argument %q", positional[0])
	}
	searching := false
	fs.Visit(func(f *flag.Flag) { searching = searching || f.Name == "search" })
	if searching && *dts {
		return usageError(stderr, "catalog", "give --search or --dts, not both")
	}

	e, err := newEnv(ctx, *configPath, listingOnly, "", nil, newLogger(stderr, quietLevel()), stderr)
	if err != nil {
		return reportSetupError(stderr, "catalog", err)
	}
	defer e.Close(context.WithoutCancel(ctx))
	run, err := e.rt.Prepare(host.RunOptions{Scope: cliScope})
	if err != nil {
		fmt.Fprintf(stderr, "codemode catalog: %v\n", err)
		return exitFailed
	}
	cat := run.Catalog()

	switch {
	case *dts:
		var files []catalog.APIFile
		if cat != nil {
			files = cat.APIFiles().Files()
		}
		if *asJSON {
			out := []catalogAPIFileListed{}
			for _, f := range files {
				out = append(out, catalogAPIFileListed{f.Path, f.Content})
			}
			return writeJSON(stdout, stderr, catalogListing{CodeMode: run.Active(), ToolSearch: run.Searching(), Visible: run.Tools(), Catalog: compactAll(cat), APIFiles: out})
		}
		if len(files) == 0 {
			fmt.Fprintln(stderr, "codemode catalog: no MCP tools in the catalog, so there are no declaration files")
			return exitOK
		}
		for i, f := range files {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "// ===== %s (%d bytes) =====\n%s", f.Path, f.Bytes, f.Content)
			if !strings.HasSuffix(f.Content, "\n") {
				fmt.Fprintln(stdout)
			}
		}
		return exitOK
	case searching:
		if cat == nil {
			return usageError(stderr, "catalog", "code mode and Tool Search are off, so there is no hidden catalog to search")
		}
		search, how := cat.Search, "tools.search"
		if run.Searching() {
			search, how = cat.SearchEvery, "tool_search"
		}
		hits, err := search(*query, 0)
		if err != nil {
			return usageError(stderr, "catalog", "search: %v", err)
		}
		if hits == nil {
			hits = []catalog.Compact{}
		}
		if *asJSON {
			return writeJSON(stdout, stderr, catalogSearch{Query: *query, Hits: hits})
		}
		fmt.Fprintf(stdout, "%s(%q): %d hits\n", how, *query, len(hits))
		for _, h := range hits {
			writeEntry(stdout, cat, h)
		}
		return exitOK
	case *asJSON:
		return writeJSON(stdout, stderr, catalogListing{CodeMode: run.Active(), ToolSearch: run.Searching(), Visible: run.Tools(), Catalog: compactAll(cat)})
	}

	visible := run.Tools()
	switch {
	case run.Active():
		fmt.Fprintf(stdout, "Code mode is on: the model sees %d tools; %d more are in the hidden catalog.\n", len(visible), cat.Len())
	case run.Searching():
		fmt.Fprintf(stdout, "Tool Search is on (mode %q): the model sees %d tools; %d more are in the hidden catalog.\n",
			e.rt.ToolSearch().Mode, len(visible), cat.Len())
	case e.cfg.Enabled:
		fmt.Fprintf(stdout, "Code mode is enabled but inactive: %s.\n", e.noTools())
	default:
		fmt.Fprintf(stdout, "Code mode is off: the model sees all %d tools directly.\n", len(visible))
	}
	fmt.Fprintf(stdout, "\n== Model-visible tools ==\n")
	if len(visible) == 0 {
		fmt.Fprintln(stdout, "(none)")
	}
	for _, t := range visible {
		kind := ""
		// The surface checks keep direct-only tools of these names away.
		control := slices.Contains([]string{"exec", "wait", "tool_search_code", "tool_search", "tool_describe", "tool_call"}, t.Name)
		if (run.Active() || run.Searching()) && !control {
			kind = " (direct-only)"
		}
		fmt.Fprintf(stdout, "\n--- %s%s ---\n%s\ninput schema: %s\n", t.Name, kind, t.Description, t.InputSchema)
	}
	if cat != nil {
		fmt.Fprintf(stdout, "\n== Hidden catalog (%d) ==\n", cat.Len())
		for _, c := range compactAll(cat) {
			writeEntry(stdout, cat, c)
		}
		if n := len(cat.APIFiles().Files()); n > 0 {
			fmt.Fprintf(stdout, "\n%d MCP declaration files; see them with --dts.\n", n)
		}
	}
	return exitOK
}

// compactAll returns every catalog entry, MCP included, in catalog order.
func compactAll(cat *catalog.Catalog) []catalog.Compact {
	out := []catalog.Compact{}
	if cat == nil {
		return out
	}
	for _, e := range cat.Entries() {
		out = append(out, e.Compact())
	}
	return out
}

// writeEntry prints one catalog entry for a person. An MCP or client
// tool's compact hints are "unknown" to the model, which reads the types in
// the declaration files instead; the listing renders them from the schemas,
// so the person sees what the model can learn.
func writeEntry(w io.Writer, cat *catalog.Catalog, c catalog.Compact) {
	in, out := c.Input, c.Output
	if e, ok := cat.Lookup(c.ID); ok {
		if h := catalog.InputHint(e.InputSchema); in == "unknown" && h.Text != "unknown" {
			in = h.Text + " (from its schema)"
		}
		if h := catalog.OutputHint(e.OutputSchema); out == "" && len(e.OutputSchema) > 0 && h.Text != "unknown" {
			out = h.Text + " (from its schema)"
		}
	}
	if out == "" {
		out = "?"
	}
	fmt.Fprintf(w, "\n%s\n    %s\n    input:  %s\n    output: %s\n", c.ID, c.Description, in, out)
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "codemode catalog: %v\n", err)
		return exitFailed
	}
	return exitOK
}
