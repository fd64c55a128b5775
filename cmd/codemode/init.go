package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
)

// initCommand turns an MCP client's config file into a codemode one: the
// servers move, as written (variables and all), into codemode.json5 next to
// it with code mode on, and the client gets one entry, codemode serve, in
// their place.
func initCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("init", "CLIENT_CONFIG [--out FILE] [--force]", stderr)
	out := fs.String("out", "", "write the codemode configuration to `FILE` (default: codemode.json5 next to CLIENT_CONFIG)")
	force := fs.Bool("force", false, "overwrite FILE if it exists")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) != 1 {
		return usageError(stderr, "init", "takes one argument: the MCP client's config file (claude_desktop_config.json, .mcp.json, mcp.json, ...)")
	}
	src := positional[0]
	data, err := os.ReadFile(src)
	if err != nil {
		return usageError(stderr, "init", "%v", err)
	}
	root, err := config.ParseJSON5(data)
	if err != nil {
		return usageError(stderr, "init", "%s: %v", src, err)
	}
	key := "mcpServers"
	servers := root.Get(key)
	if servers == nil {
		key, servers = "servers", root.Get("servers") // VS Code
	}
	if servers == nil || servers.Kind != config.Object || len(servers.Members) == 0 {
		return usageError(stderr, "init", "%s names no MCP servers (under mcpServers, or servers for VS Code)", src)
	}
	if *out == "" {
		*out = filepath.Join(filepath.Dir(src), "codemode.json5")
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		return usageError(stderr, "init", "%s exists; give --force to overwrite it, or --out another file", *out)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// codemode configuration, made by `codemode init` from %s.\n", filepath.Base(src))
	b.WriteString("// The servers are as they were there; the model now sees them through Code Mode.\n{\n  tools: { codeMode: true },\n")
	for _, k := range []string{key, "inputs"} {
		if n := root.Get(k); n != nil {
			var v bytes.Buffer
			json.Indent(&v, n.JSON(), "  ", "  ")
			fmt.Fprintf(&b, "  %s: %s,\n", k, v.String())
		}
	}
	b.WriteString("}\n")
	if err := os.WriteFile(*out, b.Bytes(), 0o600); err != nil {
		fmt.Fprintf(stderr, "codemode init: %v\n", err)
		return exitFailed
	}
	// The new file must load where serve will run it; a variable that has no
	// value here may have one in the client's environment.
	if _, err := config.Load(*out); err != nil {
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "${") {
			fmt.Fprintf(stderr, "codemode init: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stderr, "codemode init: note: %v (the client must set it for codemode serve)\n", err)
	}
	return printClientEntry(stdout, src, *out, key, len(servers.Members), inputIDs(servers.JSON()))
}

var inputRef = regexp.MustCompile(`\$\{input:([^}]+)\}`)

// inputIDs are the VS Code inputs the servers use, in order of first use.
func inputIDs(servers []byte) []string {
	var ids []string
	for _, m := range inputRef.FindAllSubmatch(servers, -1) {
		if id := string(m[1]); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// printClientEntry prints the one server entry that replaces the client's.
// VS Code answers the servers' ${input:id} only in entries of its own file,
// so the entry passes each answer on in the variable codemode reads it from.
func printClientEntry(stdout io.Writer, src, out, key string, n int, inputs []string) int {
	exe, err := os.Executable()
	if err != nil {
		exe = "codemode"
	}
	cfg, _ := filepath.Abs(out)
	entry := map[string]any{"command": exe, "args": []string{"serve", "--config", cfg}}
	if key == "servers" {
		entry["type"] = "stdio"
	}
	if len(inputs) > 0 {
		env := map[string]string{}
		for _, id := range inputs {
			env[config.InputEnv(id)] = "${input:" + id + "}"
		}
		entry["env"] = env
	}
	text, _ := json.MarshalIndent(map[string]any{key: map[string]any{"codemode": entry}}, "", "  ")
	fmt.Fprintf(stdout, "Wrote %s with %d MCP servers.\nIn %s, replace them with this one entry:\n\n%s\n", out, n, src, text)
	if len(inputs) > 0 {
		fmt.Fprintf(stdout, "\nKeep the inputs list in %s: VS Code asks for %s and hands the answers to codemode serve.\n",
			filepath.Base(src), strings.Join(inputs, ", "))
	}
	return exitOK
}
