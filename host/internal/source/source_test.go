package source

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/seed11a79d2d/codemode/abi"
)

func TestParseInput(t *testing.T) {
	cases := []struct {
		args    string
		want    Input
		wantErr string
	}{
		{`{"code":"return 1"}`, Input{Code: "return 1", Language: "javascript"}, ""},
		{`{"command":"return 1"}`, Input{Code: "return 1", Language: "javascript"}, ""},
		{`{"code":"return 1","command":"return 1"}`, Input{Code: "return 1", Language: "javascript"}, ""},
		{`{"code":"a","command":null}`, Input{Code: "a", Language: "javascript"}, ""},
		{`{"code":"a","language":"typescript","restartSafe":true}`, Input{Code: "a", Language: "typescript", RestartSafe: true}, ""},
		{`{"code":"a","language":null,"extra":1}`, Input{Code: "a", Language: "javascript"}, ""},
		{`{"code":"a","command":"b"}`, Input{}, MsgAliasMismatch},
		{`{"code":"","command":"b"}`, Input{}, MsgAliasMismatch},
		{`{}`, Input{}, MsgEmptyCode},
		{`{"code":"   \n"}`, Input{}, MsgEmptyCode},
		{`{"code":5}`, Input{}, MsgEmptyCode},
		{`{"code":"a","command":5}`, Input{}, MsgEmptyCode},
		{`[]`, Input{}, MsgEmptyCode},
		{`null`, Input{}, MsgEmptyCode},
		{`not json`, Input{}, MsgEmptyCode},
		{`{"code":"a","language":"python"}`, Input{}, MsgBadLanguage},
		{`{"code":"a","language":"JavaScript"}`, Input{}, MsgBadLanguage},
		{`{"code":"a","language":1}`, Input{}, MsgBadLanguage},
		{`{"code":"a","restartSafe":"yes"}`, Input{}, MsgRestartSafe},
	}
	for _, c := range cases {
		got, err := ParseInput([]byte(c.args))
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr || !errors.Is(err, abi.CodeInvalidInput) {
				t.Errorf("ParseInput(%s) err = %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseInput(%s) = %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name, code, lang string
		langs            []string
		reason           Reason
		msg              string
	}{
		{"plain javascript", "return 1", "", nil, "", ""},
		{"bad language", "return 1", "python", nil, ReasonInvalidArguments, MsgBadLanguage},
		{"typescript disabled", "return 1", "typescript", []string{"javascript"}, ReasonUnsupportedLanguage, "code mode typescript input is disabled."},
		{"javascript disabled", "return 1", "javascript", []string{"typescript"}, ReasonUnsupportedLanguage, "code mode javascript input is disabled."},
		{"shell", "ls -la", "javascript", nil, ReasonShellSource, MsgShellSource},
		{"shell in typescript", "git status", "typescript", nil, ReasonShellSource, MsgShellSource},
		{"module", `const fs = require("fs")`, "javascript", nil, ReasonModuleAccessDenied, MsgModuleAccess},
		{"module in typescript", `import fs from "fs"`, "typescript", nil, ReasonModuleAccessDenied, MsgModuleAccess},
		// The raw check misses a key-shaped call after a TS return type; the
		// output check catches it.
		{"module after transform", "function f(): Promise<void> {\nrequire(\"fs\")\n}", "typescript", nil, ReasonModuleAccessDenied, MsgModuleAccess},
		{"language before shell", "ls -la", "typescript", []string{"javascript"}, ReasonUnsupportedLanguage, "code mode typescript input is disabled."},
		{"shell before module", "FOO=1 node -e 'require(1)'", "javascript", nil, ReasonShellSource, MsgShellSource},
		{"windows path", `.\gradlew.bat test`, "javascript", nil, ReasonShellSource, MsgShellSource},
		{"command with flags", "custom-tool --format=json", "javascript", nil, ReasonShellSource, MsgShellSource},
		{"command with flags in typescript", "mytool -v --out=x.json", "typescript", nil, ReasonShellSource, MsgShellSource},
		{"fenced shell", "```bash\nnpm run build -- --watch\n```", "javascript", nil, ReasonShellSource, MsgShellSource},
		{"typeof require is not module access", `return typeof require === "undefined"`, "javascript", nil, "", ""},
		{"require.resolve is", `require.resolve("x")`, "javascript", nil, ReasonModuleAccessDenied, MsgModuleAccess},
		{"ts syntax", "const x: number = ;", "typescript", nil, ReasonTypeScriptTransformFailed, `typescript transform failed: Unexpected ";" (line 1, column 19)`},
		{"ts syntax line 2", "let a = 1;\nlet b: string = 2 +;", "typescript", nil, ReasonTypeScriptTransformFailed, `typescript transform failed: Unexpected ";" (line 2, column 20)`},
		{"ts unclosed", "if (x) {\n  y()", "typescript", nil, ReasonTypeScriptTransformFailed, "typescript transform failed: Unexpected end of code (line 2, column 6)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, _, err := checkLocal(c.code, c.lang, c.langs)
			if c.reason == "" {
				if err != nil || js != c.code {
					t.Fatalf("Check = %q, %v; want the code back", js, err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Reason != c.reason || e.Message != c.msg {
				t.Fatalf("Check err = %#v, want reason %s message %q", err, c.reason, c.msg)
			}
			if !errors.Is(err, abi.CodeInvalidInput) || e.Code() != abi.CodeInvalidInput {
				t.Fatalf("error %v does not carry invalid_input", err)
			}
		})
	}
}

func TestTypeScriptTransform(t *testing.T) {
	js, _, err := checkLocal("const x: number = await f();\ninterface A { a: string }\nreturn x as any;", "typescript", nil)
	if err != nil {
		t.Fatal(err)
	}
	if js != "  const x = await f();\n  return x;\n" {
		t.Fatalf("js = %q", js)
	}
	// Helpers esbuild emits above the wrapper stay in the body.
	js, _, err = checkLocal("enum E { A }\nclass C { @dec m() {} }\nreturn E.A;", "typescript", nil)
	if err != nil || !strings.HasPrefix(js, "var ") || !strings.Contains(js, "return 0 /* A */;") {
		t.Fatalf("decorators: %q, %v", js, err)
	}
	// Template text keeps its own lines and indentation.
	js, _, err = checkLocal("const s: string = `a\n  b`;\nreturn s", "typescript", nil)
	if err != nil || !strings.Contains(js, "`a\n  b`") {
		t.Fatalf("template: %q, %v", js, err)
	}
	if js, _, err := checkLocal("// nothing", "typescript", nil); err != nil || strings.TrimSpace(js) != "" {
		t.Fatalf("empty: %q, %v", js, err)
	}
}

func TestTypeScriptDiagnosticsBounded(t *testing.T) {
	var msgs []api.Message
	for i := range 9 {
		msgs = append(msgs, api.Message{Text: strings.Repeat("e", 300), Location: &api.Location{Line: i + 2, Column: 0}})
	}
	got := formatDiagnostics(msgs, strings.Split(strings.Repeat("x\n", 9), "\n"))
	if strings.Count(got, "(line ") != maxDiagnostics || !strings.HasSuffix(got, "; and 4 more") || len(got) > 1200 {
		t.Fatalf("diagnostics = %q", got)
	}
}

// TestJavaScriptOnlyProcessNeverLoadsTypeScript runs itself in a fresh
// process, so no other test has touched the TypeScript path, sends it only
// JavaScript cells (shell-shaped ones too, which reach the JS parser), and
// checks the TypeScript path stayed unloaded until the first TypeScript cell.
func TestJavaScriptOnlyProcessNeverLoadsTypeScript(t *testing.T) {
	if os.Getenv("SOURCE_TEST_JS_ONLY") == "1" {
		for _, c := range []string{"return 1", "ls -la", "foo;", "whoami;\nfunction whoami(){}", `require("fs")`, "x = 1"} {
			_, _, _ = checkLocal(c, "javascript", []string{"javascript", "typescript"})
		}
		if parseCalls.Load() == 0 {
			t.Fatal("no JavaScript parse happened; the proof proves nothing")
		}
		if n := tsLoads.Load(); n != 0 {
			t.Fatalf("TypeScript path loaded %d times by JavaScript cells", n)
		}
		if _, _, err := checkLocal("return 1 as number", "typescript", nil); err != nil {
			t.Fatal(err)
		}
		if n := tsLoads.Load(); n != 1 {
			t.Fatalf("TypeScript path loads = %d after a TypeScript cell, want 1", n)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestJavaScriptOnlyProcessNeverLoadsTypeScript$", "-test.v")
	cmd.Env = append(os.Environ(), "SOURCE_TEST_JS_ONLY=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}

// FuzzCheck checks that no input panics and that every rejection is a typed
// invalid_input error.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"ls -la", "return 1", `require("fs")`, "`${import('x')}`", "r\\u0065quire",
		"#!/bin/sh", "FOO=1 make", "if [ x ]", "/a/g", "x ? y : {z}", "\\u{", "`${", "/[/", "a\n.b", "whoami;\nfunction whoami(){}",
		"```js\nreturn 1\n```", "```ts\nlet a: number = 1\na\n```", "```\n```", "````\n```\n````", "let a = 1\na",
		"x = {}\n(a) / 1", "typeof require === 'undefined'", ".\\gradlew.bat test", "custom-tool --format=json",
		"export default async function main() {}", "export {}\nls", "export { a as default }", "import type { A } from 'a'",
		"async () => {}", "(x => x)", "function main() {}", "const a: number = 1", "x!.y", "export default"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, code string, ts bool) {
		lang := "javascript"
		if ts {
			lang = "typescript"
		}
		_, _, err := checkLocal(code, lang, nil)
		if err != nil && !errors.Is(err, abi.CodeInvalidInput) {
			t.Fatalf("untyped error %v", err)
		}
	})
}

// checkLocal is Check with esbuild in this process, for the tests of the
// checks themselves; parser_test.go tests Check through the parser process.
func checkLocal(code, language string, languages []string) (string, *Map, error) {
	return check(code, language, languages, here)
}
