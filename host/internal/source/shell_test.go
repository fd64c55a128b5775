package source

import "testing"

func TestShellShaped(t *testing.T) {
	shell := []string{
		"ls",
		"ls -la",
		"ls -la /tmp",
		"ls /tmp",
		"ls;",
		"ls; pwd",
		"pwd",
		"whoami",
		"whoami\n",
		"git status",
		"git log --oneline -5",
		"npm install",
		"npm run build && npm test",
		"pnpm -r test",
		"cat file | grep x",
		"cat package.json",
		"ls | wc -l",
		"pwd && ls",
		"ls || true",
		"echo > out.txt",
		"sort < input.txt",
		"head -5",
		"jq .",
		"jq . data.json",
		"jq .items data.json",
		"rg TODO src/",
		"curl -sS https://example.com",
		"docker-compose up -d",
		"apt-get install -y jq",
		"/bin/ls",
		"/bin/ls -la",
		"/usr/bin/env python3 script.py",
		"./run.sh",
		"./run.sh --fast",
		"../scripts/build.sh",
		"~/bin/tool --x",
		`C:\Tools\app.exe /q`,
		"#!/bin/sh\necho hi",
		"#!/usr/bin/env node\nconsole.log(1)",
		"# install deps\nnpm install",
		"// list files\nls -la",
		"/* note */ pwd",
		"FOO=1 make",
		"FOO=1 BAR='a b' make test",
		`NODE_ENV="production" node server.js`,
		"X=1 mytool",
		"if [ -f x ]; then echo y; fi",
		"if test -d dir; then ls; fi",
		"while true; do sleep 1; done",
		"for f in *.txt; do cat $f; done",
		"for ((i=0; i<3; i++)); do echo $i; done",
		"case $x in a) ls;; esac",
		"function greet { echo hi; }",
		"mytool status",
		"mytool --version",
		"mytool -v",
		"foo;",
		"foo",
		"foo\nbar()",
		"export PATH=/usr/bin",
		"cd ..",
		"python3 -m pip install x",
		"ls; const ls = 1",
		"ls -la # comment",
		"make",
		"sudo rm -rf /",
		"kubectl get pods -n x",
		// Windows paths and commands with flags.
		`.\gradlew.bat test`,
		`.\gradlew.bat`,
		`C:\tools\build.exe --release`,
		`..\scripts\run.ps1`,
		`..\scripts\run.ps1 -Verbose`,
		`git add .\src`,
		"custom-tool --format=json",
		"custom-tool status",
		"my-tool -v --out=x.json",
		"my-tool 'quoted arg'",
		"my-tool $HOME",
		"my-tool | grep x",
		"my_tool --format=json",
		"mytool -v --out=x.json",
		"npm run build -- --watch",
		"gradlew.bat test",
		"build.exe --release",
		"setup.sh --prefix=/usr",
		`Get-ChildItem -Path .\src | Select-Object Name`,
		"a --b",
		"x-y --z",
		"# build it\ncustom-tool --fast",
	}
	js := []string{
		"",
		"return 1",
		"const ls = 1; ls",
		"let pwd = 2;\nreturn pwd",
		"return pwd()",
		"await tools.search(\"x\")",
		"return await tools.callValue(\"openclaw:core:ls\", {path: \".\"})",
		"tools.search(\"ls\")",
		"text(\"hi\")",
		"json({a: 1})",
		"ALL_TOOLS.length",
		"console.log(1)",
		"whoami;\nfunction whoami() { return 1 }",
		"whoami\nfunction whoami() { return 1 }",
		"ls;\nvar ls = 3",
		"ls()",
		"ls = 1",
		"ls.map(x => x)",
		"find(x)",
		"date\n  .toString()",
		"foo()",
		"foo(",
		"foo.bar()",
		"foo = await tools.search('x')",
		"foo\n.bar()",
		"foo + 1",
		"foo && bar()",
		"foo - bar",
		"x => x",
		"foo`tagged`",
		"foo[0]",
		"result ?? 1",
		"/abc/.test(x)",
		"(() => 1)()",
		"[1, 2].map(x => x)",
		"'use strict'; return 1",
		"// ls -la\nreturn 1",
		"/* git status */ return 2",
		"if (x) { ls() }",
		"for (const x of y) {}",
		"for await (const x of y) {}",
		"while (true) { break }",
		"function greet() { echo(); }",
		"async function main() {}\nreturn main()",
		"Issues.list({state: \"open\"})",
		"a=1",
		"x = 1\nreturn x",
		"label: for (;;) break label",
		"yield_control(\"waiting\")",
		// Valid JavaScript with minus signs and dots is never shell.
		"return a - -b",
		"a - -b",
		"a-b",
		"a - b",
		"a-b;",
		"x = y - -z",
		"custom-tool",
		"custom-tool\n",
		"a-b-c * 2",
		"build.exe",
		"run.ps1 -Verbose", // parses: run.ps1 minus Verbose
		"Get-ChildItem -Recurse",
		"a--",
		"a --\nb",
		// JavaScript typos after a hyphenated word are not commands.
		"a-b + c(",
		"a-b(",
		"a-b.c(",
		"a-b = (",
		"a-b[0",
		"x = y --z", // a syntax error, but not shell: it starts as an assignment
	}
	for _, c := range shell {
		if !ShellShaped(c, false, here) {
			t.Errorf("ShellShaped(%q) = false, want true", c)
		}
	}
	for _, c := range js {
		if ShellShaped(c, false, here) {
			t.Errorf("ShellShaped(%q) = true, want false", c)
		}
	}
}

func TestShellShapedTypeScript(t *testing.T) {
	cases := []struct {
		code  string
		shell bool
	}{
		{"const x: number = 1;\nreturn x", false},
		{"type Foo = { a: string };\nreturn 1", false},
		{"foo<string>(x)", false},
		{"whoami;\nfunction whoami(): number { return 1 }", false},
		{"interface A { x: number }\nreturn 1", false},
		{"ls -la", true},
		{"git status", true},
		{"npm install", true},
	}
	for _, c := range cases {
		if got := ShellShaped(c.code, true, here); got != c.shell {
			t.Errorf("ShellShaped(%q, ts) = %v, want %v", c.code, got, c.shell)
		}
	}
}

// TestShellShapedCheapForOrdinaryCells proves that cells which are not
// candidates never reach the parser.
func TestShellShapedCheapForOrdinaryCells(t *testing.T) {
	before := parseCalls.Load()
	for _, c := range []string{
		"return 1",
		"const r = await tools.callValue(\"openclaw:core:read\", {path: \"a\"});\nreturn r",
		"await tools.search(\"x\")",
		"// comment\nlet x = 1",
		"tools.describe('x')",
		"text('a'); json({})",
		"foo(1)",
		"foo.bar = 2",
		"x = 3",
		"[1].map(String)",
		"(async () => 1)()",
		"'str'",
	} {
		ShellShaped(c, false, here)
	}
	if n := parseCalls.Load() - before; n != 0 {
		t.Fatalf("ordinary cells made %d parses, want 0", n)
	}
}
