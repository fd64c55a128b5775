package source

import (
	"errors"
	"strings"
	"testing"
)

func TestUnwrapFence(t *testing.T) {
	cases := []struct {
		name, code, want string
		kind             fenceKind
	}{
		{"bare", "```\nreturn 1\n```", "\nreturn 1\n", fenceJavaScript},
		{"js", "```js\nreturn 1\n```", "\nreturn 1\n", fenceJavaScript},
		{"javascript", "```javascript\nconst a = 1;\nreturn a;\n```", "\nconst a = 1;\nreturn a;\n", fenceJavaScript},
		{"mjs", "```mjs\nreturn 1\n```", "\nreturn 1\n", fenceJavaScript},
		{"tag in capitals", "```JS\nreturn 1\n```", "\nreturn 1\n", fenceJavaScript},
		{"tag with attributes", "```js title=\"cell\"\nreturn 1\n```", "\nreturn 1\n", fenceJavaScript},
		{"ts", "```ts\nreturn 1 as number\n```", "\nreturn 1 as number\n", fenceTypeScript},
		{"typescript", "```typescript\nreturn 1\n```", "\nreturn 1\n", fenceTypeScript},
		{"bash", "```bash\nls -la\n```", "\nls -la\n", fenceShell},
		{"sh", "```sh\nnpm test\n```", "\nnpm test\n", fenceShell},
		{"powershell", "```powershell\n.\\build.ps1\n```", "\n.\\build.ps1\n", fenceShell},
		{"whitespace around", "\n\n  ```js  \nreturn 1\n  ```  \n\n", "\n\n  \nreturn 1\n  \n\n", fenceJavaScript},
		{"CRLF", "```js\r\nreturn 1\r\n```\r\n", "\nreturn 1\r\n\r\n", fenceJavaScript},
		{"longer fence", "````js\nconst s = `\n```\n`;\nreturn s\n````", "\nconst s = `\n```\n`;\nreturn s\n", fenceJavaScript},
		{"closing longer than opening", "```js\nreturn 1\n`````", "\nreturn 1\n", fenceJavaScript},
		{"empty body", "```js\n```", "\n", fenceJavaScript},
		{"indented body", "```js\n  return 1\n```", "\n  return 1\n", fenceJavaScript},
		// Left alone: not one fence and nothing else.
		{"no closing fence", "```js\nreturn 1", "```js\nreturn 1", fenceNone},
		{"one line", "```return 1```", "```return 1```", fenceNone},
		{"closing fence on the last code line", "```js\nreturn 1```", "```js\nreturn 1```", fenceNone},
		{"text before", "Here is the code:\n```js\nreturn 1\n```", "Here is the code:\n```js\nreturn 1\n```", fenceNone},
		{"text after", "```js\nreturn 1\n```\nThis returns 1.", "```js\nreturn 1\n```\nThis returns 1.", fenceNone},
		{"two fences", "```js\nconst a = 1\n```\n```js\nreturn a\n```", "```js\nconst a = 1\n```\n```js\nreturn a\n```", fenceNone},
		{"two fences with text", "```js\na\n```\nthen\n```js\nb\n```", "```js\na\n```\nthen\n```js\nb\n```", fenceNone},
		{"closing fence too short", "````js\nreturn 1\n```", "````js\nreturn 1\n```", fenceNone},
		{"other language", "```python\nprint(1)\n```", "```python\nprint(1)\n```", fenceNone},
		{"json", "```json\n{\"a\": 1}\n```", "```json\n{\"a\": 1}\n```", fenceNone},
		{"backtick in the info", "``` js`\nreturn 1\n```", "``` js`\nreturn 1\n```", fenceNone},
		{"two backticks", "``\nreturn 1\n``", "``\nreturn 1\n``", fenceNone},
		{"a template literal", "``\n`", "``\n`", fenceNone},
		{"not a fence", "return 1", "return 1", fenceNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, kind := unwrapFence(c.code)
			if got != c.want || kind != c.kind {
				t.Fatalf("unwrapFence(%q) = %q, %d; want %q, %d", c.code, got, kind, c.want, c.kind)
			}
			if kind != fenceNone && strings.Count(got, "\n") != strings.Count(c.code, "\n") {
				t.Fatalf("the lines moved: %q", got)
			}
		})
	}
}

func TestCheckFence(t *testing.T) {
	cases := []struct {
		name, code, lang string
		langs            []string
		js               string // want this JavaScript, or with reason this rejection
		reason           Reason
	}{
		{"body runs", "```js\nconst a = 1;\nreturn a;\n```", "", nil, "\nconst a = 1;\nreturn a;\n", ""},
		{"trailing expression in a fence", "```js\nconst a = 1;\na\n```", "", nil, "\nconst a = 1;\nreturn (a)\n", ""},
		{"shell in a bare fence", "```\nls -la\n```", "", nil, "", ReasonShellSource},
		{"module access in a fence", "```js\nrequire('fs')\n```", "", nil, "", ReasonModuleAccessDenied},
		{"shell tag", "```bash\nconsole.log(1)\n```", "", nil, "", ReasonShellSource},
		{"shell tag, language off first", "```bash\nls\n```", "typescript", []string{JavaScript}, "", ReasonUnsupportedLanguage},
		// A ts fence on a JavaScript request is TypeScript where that is enabled.
		{"ts fence, both enabled", "```ts\nconst a: number = 1;\nreturn a;\n```", "javascript", nil, "  const a = 1;\n  return a;\n", ""},
		{"ts fence, typescript only", "```ts\nreturn 1 as number\n```", "", []string{TypeScript}, "  return 1;\n", ""},
		{"ts fence, javascript only", "```ts\nreturn 1\n```", "", []string{JavaScript}, "\nreturn 1\n", ""},
		// Types where TypeScript is disabled: refused, naming the language.
		{"ts fence with types, javascript only", "```ts\nreturn 1 as number\n```", "", []string{JavaScript}, "", ReasonUnsupportedLanguage},
		{"js fence on a typescript request", "```js\nreturn 1\n```", "typescript", nil, "  return 1;\n", ""},
		// Text outside a fence: guidance to send only the code.
		{"text before", "Run this:\n```js\nreturn 1\n```", "", nil, "", ReasonMarkdownProse},
		{"text after", "```js\nreturn 1\n```\nThis returns one.", "", nil, "", ReasonMarkdownProse},
		{"two fences", "```js\nconst a = 1\n```\n```js\nreturn a\n```", "", nil, "", ReasonMarkdownProse},
		{"a fence in a doc comment runs", "/**\n * ```js\n * f()\n * ```\n */\nreturn 1", "", nil, "/**\n * ```js\n * f()\n * ```\n */\nreturn 1", ""},
		{"an escaped fence in a template runs", "const md = `\n\\`\\`\\`js\n`;\nreturn md.length", "", nil, "const md = `\n\\`\\`\\`js\n`;\nreturn md.length", ""},
		{"shell without a fence is still shell", "ls -la", "", nil, "", ReasonShellSource},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, _, err := checkLocal(c.code, c.lang, c.langs)
			if c.reason != "" {
				var e *Error
				if !errors.As(err, &e) || e.Reason != c.reason {
					t.Fatalf("Check = %q, %v; want reason %s", js, err, c.reason)
				}
				return
			}
			if err != nil || js != c.js {
				t.Fatalf("Check = %q, %v; want %q", js, err, c.js)
			}
		})
	}
}

// TestFenceKeepsLines: errors in a fenced cell name the lines the model sent.
func TestFenceKeepsLines(t *testing.T) {
	code := "```ts\nconst a: number = 1;\nconst b: string = ;\n```"
	_, _, err := checkLocal(code, TypeScript, nil)
	if err == nil || !strings.Contains(err.Error(), "(line 3, column 19)") {
		t.Fatalf("err = %v, want line 3", err)
	}
	// A comment before the fence: not one fence, so not unwrapped; it would
	// run as tagged templates, so it gets the guidance instead.
	var e *Error
	if _, _, err := checkLocal("// the cell\n```js\nreturn 1\n```", JavaScript, nil); !errors.As(err, &e) || e.Reason != ReasonMarkdownProse {
		t.Fatalf("a comment and a fence: %v", err)
	}
	js, _, err := checkLocal("```js\nconst a = 1;\nthrow new Error(a);\n```", JavaScript, nil)
	if err != nil || strings.Split(js, "\n")[2] != "throw new Error(a);" {
		t.Fatalf("js = %q, %v", js, err)
	}
}
