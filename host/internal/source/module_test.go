package source

import (
	"strings"
	"testing"
)

func TestModuleAccess(t *testing.T) {
	denied := []string{
		`import fs from "fs"`,
		`import { readFile } from "node:fs"`,
		`import * as os from "os"`,
		`import "side-effect"`,
		`const m = await import("fs")`,
		`import ("fs")`,
		`return import.meta.url`,
		`require("fs")`,
		`const r = require; r("fs")`,
		`(0, require)("fs")`,
		`r\u0065quire("fs")`,
		`\u0072equire("fs")`,
		`r\u{65}quire("fs")`,
		`\u0069mport("fs")`,
		`module.require("fs")`,
		`module?.require("fs")`,
		`module["require"]("fs")`,
		`module['req\u0075ire']("fs")`,
		`process.mainModule.require("fs")`,
		`globalThis.require("fs")`,
		`process.getBuiltinModule("fs")`,
		`process["getBuiltinModule"]("fs")`,
		`const { getBuiltinModule } = process`,
		"`${import(\"fs\")}`",
		"`a ${`b ${require(\"fs\")}`} c`",
		"`x ${ {a: 1}.a } ${import.meta}`",
		`const o = { a: f(0, require("fs")) }`,
		`const o = { require }`,
		`x ? require : null`,
		`if (x) /'/; require("fs") //'/`,
		`while (x) /"/.test(y), require("fs") //"/`,
		`{} /'/; require("fs") //'/`,
		`let a = b\n/x/; require("fs")`,
		`const s = 'unterminated; require("fs")`,
		"`unterminated ${require}",
		`/* unterminated comment require`,
		// Methods named like a loader are refused: only a guess tells them from calls.
		`return { import() { return 1 }, require() {} }`,
		// A slash read the wrong way would hide code in a "regex" or "string".
		`x = function(){} /1; require("fs"); 1/ 1`,
		`x = class {} /1; require("fs"); 1/ 1`,
		`a.return /1; require("fs"); 1/ 1`,
		`a.if (1) /1; require("fs"); 1/ 1`,
		`yield /1; require("fs"); 1/ 1`,
		`for await (x of y) /'/; require("fs") //'/`,
		`x = 1` + "\n" + `{ require("fs") }`,
		strings.Repeat("(a) / 2; ", 40) + `x = function(){} /1; require("fs"); 1/ 1`,
		`return "\\"` + " + require", // a backslash string, then the real require
	}
	allowed := []string{
		`return "import fs from 'fs'"`,
		`return 'require("fs")'`,
		`// require("fs")` + "\nreturn 1",
		`/* import("fs") */ return 1`,
		"return `import(\"fs\") and require(x)`",
		"return `${a} import require ${b}`",
		`return /import\(|require\(/.test(s)`,
		`return /[/]require/.source`,
		`return api.import()`,
		`return api.import.meta`,
		`return x.require`,
		`return x?.require`,
		`return obj.getBuiltinModule`,
		`const important = 1, required = 2, requires = 3, imports = 4; return important`,
		`return { import: 1, require: 2 }`,
		`class A { #require = 1; #import() {} }`,
		`return a / b / c`,
		`return (a) / 2 / require_count`,
		`const x = y / 2; // require`,
		`if (a) { b = 1 } /x/.test(s)`,
		"return `a${b}c` / 2",
		`return "\"require\""`,
		`return 'it\'s import'`,
		`const s = "\u0072equire"`,
		`return x++ / 2`,
		`tools.search("how to import a module")`,
		"#!/usr/bin/env node\nreturn 1",
		`const avg = (a + b) / 2; return "how to import " + avg`,
		`if (x) { y() } /'/.test(s); return "require"`,
		`return { require: 1 }`,
		`label: { break label }`,
		`return /import(x)/.source`,
		`typeof /require(1)/; return 1`,
		`void /require(x)/; throw /import(x)/`,
		`switch (s) { case /require(x)/: delete /import(x)/.x }`,
		`if (a) return 1; else /require(x)/.test(s)`,
	}
	for _, c := range denied {
		if !ModuleAccess(c) {
			t.Errorf("ModuleAccess(%q) = false, want true", c)
		}
	}
	for _, c := range allowed {
		if ModuleAccess(c) {
			t.Errorf("ModuleAccess(%q) = true, want false", c)
		}
	}
}
