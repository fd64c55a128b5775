package host

import (
	"encoding/json"
	"strings"
	"testing"
)

// Cells shaped as modules, as one function, or as TypeScript sent as
// JavaScript complete with the value their author meant (shape.go and
// tshint.go in internal/source).
func TestModuleShapedCells(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	cases := []struct {
		name, lang, src, want string
		ranAs                 string
	}{
		{"export default async function main", "", "export default async function main() {\n  const s = await tools.shipping_list();\n  return s.length;\n}\n", `3`, ""},
		{"export default arrow", "", "export default async () => {\n  const s = await tools.shipping_list();\n  return s.map((x) => x.id);\n};", `["a","b","c"]`, ""},
		{"export default value", "", "const s = await tools.shipping_list();\nexport default { count: s.length };", `{"count":3}`, ""},
		{"export default named, called by the cell", "", "export default async function main() { return 2 }\nawait main()", `2`, ""},
		{"export const and function", "", "export const limit = 10;\nexport function heavy(s) { return s.tons > limit }\n(await tools.shipping_list()).filter(heavy).length", `2`, ""},
		{"export {} for top-level await", "", "export {};\nconst s = await tools.shipping_list();\ns.length", `3`, ""},
		{"export { n }", "", "const n = 4;\nexport { n };\nn * 2", `8`, ""},
		{"export { main as default }", "", "async function run() { return \"ran\" }\nexport { run as default };", `"ran"`, ""},
		{"uncalled main", "", "async function main() {\n  return (await tools.shipping_list()).length;\n}", `3`, ""},
		{"main called once", "", "let calls = 0;\nasync function main() { calls++; return calls }\nawait main();\ncalls", `1`, ""},
		{"one arrow", "", "async () => {\n  const s = await tools.shipping_list();\n  return s.filter((x) => x.paid).length;\n}", `1`, ""},
		{"one arrow with expression body", "", "async () => (await tools.shipping_list()).length", `3`, ""},
		{"parenthesized arrow", "", "(async () => { return 5 })", `5`, ""},
		{"anonymous function", "", "async function () { return 6 }", `6`, ""},
		{"import type in typescript", "typescript", "import type { Shipment } from \"./types\";\nconst s: Shipment[] = await tools.shipping_list();\ns.length", `3`, ""},
		{"typescript module", "typescript", "export interface Row { id: string }\nexport default async function main(): Promise<string[]> {\n  const s: Row[] = await tools.shipping_list();\n  return s.map((r) => r.id);\n}", `["a","b","c"]`, ""},
		{"typescript sent as javascript", "", "type Row = { id: string; tons: number };\nconst s: Row[] = await tools.shipping_list();\ns.reduce((n, r: Row) => n + r.tons, 0)", `45`, "typescript"},
		{"typescript annotations only", "javascript", "const s = await tools.shipping_list();\nreturn s.map((r: any) => r.id as string).join(\",\")", `"a,b,c"`, "typescript"},
		{"typescript module sent as javascript", "", "import type { Row } from \"./rows\";\nexport default async function main(): Promise<number> {\n  return (await tools.shipping_list()).length;\n}", `3`, "typescript"},
		{"ts fence", "", "```ts\nconst n: number = 1;\nn\n```", `1`, "typescript"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := execLang(run, c.lang, c.src)
			if c.lang == "" {
				r = exec(t, run, c.src)
			}
			if r.Status != StatusCompleted || string(r.Value) != c.want {
				t.Fatalf("got %s %s %s; want %s", r.Status, r.Value, r.Error, c.want)
			}
			if r.Telemetry.RanAs != c.ranAs {
				t.Fatalf("telemetry ranAs = %q, want %q", r.Telemetry.RanAs, c.ranAs)
			}
		})
	}
}

// What the reshaping does not forgive: each fails with its own message.
func TestModuleShapedCellsRefused(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	cases := []struct{ name, src, code, reason, err string }{
		{"export from", "export * from \"fs\"", "invalid_input", "module_access_denied", "code mode module access is disabled."},
		{"export list from", "export { readFile } from \"fs\"", "invalid_input", "module_access_denied", "code mode module access is disabled."},
		{"shell export", "export PATH=/usr/bin:$PATH", "invalid_input", "shell_source", "code-mode exec runs JavaScript or TypeScript, not shell commands."},
		{"export {} then shell", "export {};\nls -la", "invalid_input", "shell_source", "code-mode exec runs JavaScript or TypeScript, not shell commands."},
		{"value import", "import { x } from \"./x\";\nx", "invalid_input", "module_access_denied", "code mode module access is disabled."},
		{"default export throws", "export default async function main() {\n  throw new Error(\"boom\");\n}", "internal_error", "", "Error: boom"},
		{"broken typescript", "const n: number = ;\nn", "invalid_input", "typescript_transform_failed", `this cell reads as TypeScript (language "typescript") and does not parse: typescript transform failed: Unexpected ";" (line 1, column 19)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := exec(t, run, c.src)
			if r.Status != StatusFailed || string(r.Code) != c.code || string(r.Reason) != c.reason || !strings.HasPrefix(r.Error, c.err) {
				t.Fatalf("got %s %q %q %q", r.Status, r.Code, r.Reason, r.Error)
			}
		})
	}
}

// With TypeScript disabled, TypeScript sent as JavaScript is refused with
// a message that names the language, rather than the engine's syntax error.
func TestTypeScriptCellWhereDisabled(t *testing.T) {
	run := prepare(t, newRuntime(t, `{"enabled":true,"languages":["javascript"]}`, shipments()), RunOptions{})
	r := exec(t, run, "const n: number = 1;\nn")
	if r.Status != StatusFailed || r.Reason != "unsupported_language" || !strings.Contains(r.Error, `language "typescript"`) {
		t.Fatalf("got %+v", r)
	}
	// Plain JavaScript is untouched there, modules and all.
	if r := exec(t, run, "export default () => 1"); r.Status != StatusCompleted || string(r.Value) != "1" {
		t.Fatalf("javascript: %+v", r)
	}
}

// Errors in reshaped cells name the lines and columns the model sent.
func TestModuleShapedPositions(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	checkPositions(t, exec(t, run, "export default async function main() {\n  throw new Error(\"x\");\n}"), "cell.js:2:13", "cell.js:3:2")
	checkPositions(t, exec(t, run, "async () => {\n\n  throw new Error(\"y\");\n}"), "cell.js:3:13", "cell.js:4:1")
	checkPositions(t, exec(t, run, "const n: number = 1;\nexport {};\nthrow new Error(\"z\" as string);"), "cell.js:3:11")
	var v any
	if r := exec(t, run, "export default 1"); json.Unmarshal(r.Value, &v) != nil || v != 1.0 {
		t.Fatalf("%+v", r)
	}
}

// TypeScript: the inserted call is taken out after esbuild's map.
func TestModuleShapedPositionsTypeScript(t *testing.T) {
	run := prepare(t, newRuntime(t, `true`, shipments()), RunOptions{})
	src := "export default async function main(): Promise<void> {\n  const s: string = \"x\";\n  throw new Error(s);\n}"
	checkPositions(t, execLang(run, "typescript", src), "cell.js:3:19", "cell.js:4:2") // QuickJS puts the throw at its argument
}
