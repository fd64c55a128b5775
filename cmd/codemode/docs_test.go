package main

// The documentation under docs/ is checked where it shows code:
//
//   - A ```js or ```ts block directly after a line <!-- run --> is a cell:
//     it runs with `codemode exec` on the demo catalog (a fresh one per
//     block) and must complete. <!-- run value: JSON --> also compares the
//     final value with JSON; <!-- run fails: CODE --> expects a failed result
//     with that error code instead.
//   - A ```json5 block directly after <!-- check --> is a config file: the
//     command's loader must accept it without warnings.
//     <!-- check warning: TEXT --> expects exactly that one warning, and
//     <!-- check error: TEXT --> exactly that error.
//   - A table directly after <!-- errors --> has rows | `FILE` | `RESULT` |:
//     FILE is a one-line config file named codemode.json5, RESULT the
//     loader's error, or "warning: " and its one warning.
//   - Every ```json block must be valid JSON.
//
// Beside that: every js/ts block of docs/guest-api.md and every json5 block
// of docs/config.md is marked, docs/config.md names every flag of every
// command and every CODEMODE_ environment variable the code reads, and no
// Markdown or Go file of the repository points outside it.

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/host"
)

// repoRoot is the module root, two levels above this package.
var repoRoot = filepath.Join("..", "..")

// docBlock is one fenced block of a document, with the marker comment on
// the line before its fence ("" when it has none).
type docBlock struct {
	file   string // the document, relative to the repository root
	line   int    // the line of the opening fence, 1-based
	lang   string // the fence's info string: js, ts, json5, ...
	marker string // the marker's text between "<!--" and "-->", trimmed
	body   string
}

func (b docBlock) String() string { return b.file + ":" + strconv.Itoa(b.line) }

// markerLine matches a marker comment: <!-- run ... -->, <!-- check ... -->.
var markerLine = regexp.MustCompile(`^<!--\s*(.*?)\s*-->$`)

// docBlocks returns every fenced block of the document at name (relative to
// the repository root).
func docBlocks(t *testing.T, name string) []docBlock {
	t.Helper()
	lines := strings.Split(readRepoFile(t, name), "\n")
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		open := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(open, "```") {
			continue
		}
		// A longer fence (````) holds blocks with ``` lines of their own.
		fence := open[:len(open)-len(strings.TrimLeft(open, "`"))]
		b := docBlock{file: name, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(open, fence))}
		if i > 0 {
			if m := markerLine.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				b.marker = m[1]
			}
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s: the block is not closed", b)
		}
		b.body = strings.Join(body, "\n") + "\n"
		out = append(out, b)
	}
	return out
}

// docFiles lists the Markdown files of docs/, relative to the repository root.
func docFiles(t *testing.T) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	var out []string
	for _, m := range matches {
		rel, _ := filepath.Rel(repoRoot, m)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// markerArg splits a marker "run value: [1]" into its word ("run"), its
// key ("value") and the text after the colon ("[1]").
func markerArg(marker string) (word, key, arg string) {
	word, rest, _ := strings.Cut(marker, " ")
	key, arg, _ = strings.Cut(strings.TrimSpace(rest), ":")
	return word, strings.TrimSpace(key), strings.TrimSpace(arg)
}

// Every cell the docs mark runnable runs with the real exec path on the demo
// catalog and ends as its marker says.
func TestDocsCellsRun(t *testing.T) {
	ran := 0
	for _, name := range docFiles(t) {
		for _, b := range docBlocks(t, name) {
			word, key, arg := markerArg(b.marker)
			if word != "run" {
				continue
			}
			ran++
			t.Run(strings.TrimPrefix(b.String(), "docs/"), func(t *testing.T) {
				args := []string{"exec", "-e", b.body}
				switch b.lang {
				case "js":
				case "ts":
					args = append(args, "--lang", "typescript")
				default:
					t.Fatalf("%s: a run marker before a ```%s block; runnable blocks are ```js or ```ts", b, b.lang)
				}
				stdout, stderr, _ := cli(t, "", args...)
				rs := results(t, stdout)
				last := rs[len(rs)-1]
				switch key {
				case "", "value":
					if last.Status != host.StatusCompleted {
						t.Fatalf("%s: the cell ended %s (%s: %s), want completed\n%s\nstderr: %s", b, last.Status, last.Code, last.Error, b.body, stderr)
					}
					if key == "value" {
						var want any
						if err := json.Unmarshal([]byte(arg), &want); err != nil {
							t.Fatalf("%s: the marker's value is not JSON: %v", b, err)
						}
						if got := value(t, last); !reflect.DeepEqual(got, want) {
							t.Errorf("%s: value %s, the doc says %s", b, last.Value, arg)
						}
					}
				case "fails":
					if last.Status != host.StatusFailed || string(last.Code) != arg {
						t.Errorf("%s: the cell ended %s (%s: %s), the doc says it fails with %s", b, last.Status, last.Code, last.Error, arg)
					}
				default:
					t.Fatalf("%s: unknown run marker %q (want run, run value: JSON or run fails: CODE)", b, b.marker)
				}
			})
		}
	}
	if ran == 0 {
		t.Fatal("no runnable cells in docs/")
	}
}

// Every js and ts block of the guest API page is a cell the tests run.
func TestDocsGuestAPIBlocksAreMarked(t *testing.T) {
	for _, b := range docBlocks(t, "docs/guest-api.md") {
		if (b.lang == "js" || b.lang == "ts") && !strings.HasPrefix(b.marker, "run") {
			t.Errorf("%s: a ```%s block without <!-- run --> before it", b, b.lang)
		}
	}
}

// Every config file the docs mark is accepted by the command's loader as
// its marker says.
func TestDocsConfigBlocksLoad(t *testing.T) {
	checked := 0
	for _, name := range docFiles(t) {
		for _, b := range docBlocks(t, name) {
			word, key, arg := markerArg(b.marker)
			if word != "check" {
				if name == "docs/config.md" && b.lang == "json5" {
					t.Errorf("%s: a ```json5 block without <!-- check --> before it", b)
				}
				continue
			}
			checked++
			if b.lang != "json5" {
				t.Errorf("%s: a check marker before a ```%s block; config blocks are ```json5", b, b.lang)
				continue
			}
			f, err := config.Parse("codemode.json5", []byte(b.body))
			switch key {
			case "":
				if err != nil {
					t.Errorf("%s: %v", b, err)
				} else if len(f.Warnings) > 0 {
					t.Errorf("%s: warnings %q", b, f.Warnings)
				}
			case "warning":
				if err != nil {
					t.Errorf("%s: %v", b, err)
				} else if len(f.Warnings) != 1 || f.Warnings[0] != arg {
					t.Errorf("%s: warnings %q, the doc says %q", b, f.Warnings, arg)
				}
			case "error":
				if err == nil || err.Error() != arg {
					t.Errorf("%s: error %v, the doc says %q", b, err, arg)
				}
			default:
				t.Errorf("%s: unknown check marker %q", b, b.marker)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no checked config blocks in docs/")
	}
}

// tableRow matches | `FILE` | `RESULT` | (a backslash-escaped | is a |).
var tableRow = regexp.MustCompile("^\\|\\s*`(.+?)`\\s*\\|\\s*`(.+?)`\\s*\\|$")

// The error tables of the docs give the loader's exact words.
func TestDocsConfigErrorTables(t *testing.T) {
	rows := 0
	for _, name := range docFiles(t) {
		lines := strings.Split(readRepoFile(t, name), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) != "<!-- errors -->" {
				continue
			}
			// The header and its separator, then the rows up to a blank line.
			for i += 3; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				m := tableRow.FindStringSubmatch(strings.TrimSpace(lines[i]))
				if m == nil {
					t.Errorf("%s:%d: not a | `FILE` | `RESULT` | row: %s", name, i+1, lines[i])
					continue
				}
				rows++
				file := strings.ReplaceAll(m[1], `\|`, "|")
				want := strings.ReplaceAll(m[2], `\|`, "|")
				f, err := config.Parse("codemode.json5", []byte(file+"\n"))
				var got string
				switch {
				case err != nil:
					got = err.Error()
				case len(f.Warnings) == 1:
					got = "warning: " + f.Warnings[0]
				default:
					got = "accepted with warnings " + strings.Join(f.Warnings, "; ")
				}
				if got != want {
					t.Errorf("%s:%d: %s\n  gives %s\n  the doc says %s", name, i+1, file, got, want)
				}
			}
		}
	}
	if rows == 0 {
		t.Fatal("no <!-- errors --> table rows in docs/")
	}
}

// Every ```json block of the docs is valid JSON, so it can be pasted.
func TestDocsJSONBlocksParse(t *testing.T) {
	for _, name := range docFiles(t) {
		for _, b := range docBlocks(t, name) {
			if b.lang == "json" && !json.Valid([]byte(b.body)) {
				t.Errorf("%s: not valid JSON:\n%s", b, b.body)
			}
		}
	}
}

// flagLine matches a flag in the output of flag.PrintDefaults.
var flagLine = regexp.MustCompile(`(?m)^  -(\S+)`)

// docs/config.md names every flag of every command: `--name`, or `-e`.
func TestDocsConfigNamesEveryFlag(t *testing.T) {
	doc := readRepoFile(t, "docs/config.md")
	for _, cmd := range []string{"exec", "catalog", "serve", "conformance", "version"} {
		_, stderr, code := cli(t, "", cmd, "-h")
		if code != exitOK {
			t.Fatalf("codemode %s -h: exit %d\n%s", cmd, code, stderr)
		}
		flags := flagLine.FindAllStringSubmatch(stderr, -1)
		if len(flags) == 0 {
			t.Fatalf("codemode %s -h lists no flags:\n%s", cmd, stderr)
		}
		for _, f := range flags {
			name := "--" + f[1]
			if len(f[1]) == 1 {
				name = "-" + f[1]
			}
			if !strings.Contains(doc, "`"+name) {
				t.Errorf("docs/config.md does not document %s of codemode %s", name, cmd)
			}
		}
	}
}

// envName matches the name of an environment variable of this project in Go
// source.
var envName = regexp.MustCompile(`"(CODEMODE_[A-Z0-9_]+)"`)

// docs/config.md names every CODEMODE_ variable that non-test code reads,
// and only those.
func TestDocsConfigNamesEveryEnvironmentVariable(t *testing.T) {
	doc := readRepoFile(t, "docs/config.md")
	seen := map[string]string{}
	walkRepo(t, func(rel string, data []byte) {
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return
		}
		for _, m := range envName.FindAllSubmatch(data, -1) {
			seen[string(m[1])] = rel
		}
	})
	if len(seen) == 0 {
		t.Fatal("found no CODEMODE_ variables in the code")
	}
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		if !strings.Contains(doc, "`"+name) {
			t.Errorf("docs/config.md does not document $%s (read in %s)", name, seen[name])
		}
	}
	// And it names none that the code no longer has.
	for _, m := range regexp.MustCompile("`(CODEMODE_[A-Z0-9_]+)").FindAllStringSubmatch(doc, -1) {
		if _, ok := seen[m[1]]; !ok {
			t.Errorf("docs/config.md documents $%s, which no code reads", m[1])
		}
	}
}

// walkRepo calls fn with every Markdown and Go file of the repository (paths
// relative to its root, with slashes), skipping .git and .cache.
func walkRepo(t *testing.T, fn func(rel string, data []byte)) {
	t.Helper()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != repoRoot && (n == ".git" || n == ".cache" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		fn(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// outsideRefs are ways a file can point at documents outside the
// repository. They are spelled in pieces so that this file does not match.
var outsideRefs = []string{".." + "/shared", "shared" + "/spec", "shared" + "/design"}

// The repository stands on its own: no Markdown or Go file points at
// documents outside it.
func TestNoReferencesOutsideTheRepository(t *testing.T) {
	walkRepo(t, func(rel string, data []byte) {
		for i, line := range strings.Split(string(data), "\n") {
			for _, ref := range outsideRefs {
				if strings.Contains(line, ref) {
					t.Errorf("%s:%d: refers outside the repository (%q): %s", rel, i+1, ref, strings.TrimSpace(line))
				}
			}
		}
	})
}
