package config

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The variables of the MCP clients whose configs a file may be pasted from:
//
//	${VAR} and ${VAR:-default}    Claude Code
//	${env:VAR}                    VS Code, Cursor
//	${input:id}                   VS Code: answered by CODEMODE_INPUT_<ID>
//	${userHome}, ${workspaceFolder}, ${workspaceFolderBasename},
//	${pathSeparator}, ${/}        VS Code, Cursor
//
// They are expanded in a server's command, args, env, cwd, envFile, url and
// headers. A variable with no value is an error naming it: a server that
// gets the literal text fails later with a message that says nothing.
var variableRE = regexp.MustCompile(`\$\{([^{}]*)\}`)

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expander expands the variables of one file.
type expander struct {
	path   string            // the config file
	inputs map[string]string // VS Code input id -> its description
}

// InputEnv is the environment variable that answers a VS Code
// ${input:id}: CODEMODE_INPUT_ and the id in upper case, with every
// character other than a letter or digit as "_".
func InputEnv(id string) string {
	var b strings.Builder
	b.WriteString("CODEMODE_INPUT_")
	for _, r := range strings.ToUpper(id) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// workspace is VS Code's and Cursor's ${workspaceFolder}: the folder that
// holds the file, or the one above when the file is in .vscode or .cursor.
func (x *expander) workspace() string {
	dir, _ := filepath.Abs(filepath.Dir(x.path))
	if b := filepath.Base(dir); b == ".vscode" || b == ".cursor" {
		return filepath.Dir(dir)
	}
	return dir
}

// expand replaces every variable in s, or says which one has no value.
func (x *expander) expand(s string) (string, error) {
	var failure error
	out := variableRE.ReplaceAllStringFunc(s, func(m string) string {
		v, err := x.value(m[2 : len(m)-1])
		if err != nil && failure == nil {
			failure = err
		}
		return v
	})
	return out, failure
}

func (x *expander) value(name string) (string, error) {
	switch name {
	case "userHome":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("${userHome} has no value: %v", err)
		}
		return home, nil
	case "workspaceFolder":
		return x.workspace(), nil
	case "workspaceFolderBasename":
		return filepath.Base(x.workspace()), nil
	case "pathSeparator", "/":
		return string(filepath.Separator), nil
	}
	if kind, arg, ok := strings.Cut(name, ":"); ok && kind != "" && !strings.HasPrefix(arg, "-") {
		switch kind {
		case "env":
			if v, ok := os.LookupEnv(arg); ok {
				return v, nil
			}
			return "", fmt.Errorf("${%s}: the environment variable %s is not set", name, arg)
		case "input":
			desc, declared := x.inputs[arg]
			if !declared {
				return "", fmt.Errorf("${%s}: no input with id %q is declared under inputs", name, arg)
			}
			if v, ok := os.LookupEnv(InputEnv(arg)); ok {
				return v, nil
			}
			hint := ""
			if desc != "" {
				hint = fmt.Sprintf(" (VS Code would ask: %q)", desc)
			}
			return "", fmt.Errorf("${%s}: set %s to answer it%s", name, InputEnv(arg), hint)
		}
		return "", fmt.Errorf("${%s}: unknown variable kind %q (known: env, input)", name, kind)
	}
	v, def, hasDefault := strings.Cut(name, ":-")
	if !envNameRE.MatchString(v) {
		return "", fmt.Errorf("${%s} is not a variable this file can use", name)
	}
	if val, ok := os.LookupEnv(v); ok && (val != "" || !hasDefault) {
		return val, nil
	}
	if hasDefault {
		return def, nil
	}
	return "", fmt.Errorf("${%s}: the environment variable %s is not set (write ${%s:-default} for a default)", name, v, v)
}

// readEnvFile reads a dotenv file: KEY=VALUE lines, "#" comments, an
// optional "export ", values optionally in single or double quotes.
func readEnvFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		k = strings.TrimSpace(k)
		if !ok || !envNameRE.MatchString(k) {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE", path, n)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		out[k] = v
	}
	return out, sc.Err()
}
