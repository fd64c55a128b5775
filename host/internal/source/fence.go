package source

import "strings"

// Models often send a cell as they would show it in chat: one markdown
// fence around the code. Such a cell runs as the fence's body. The fence
// lines are blanked rather than removed, so the body keeps its line numbers
// and columns and errors point at the lines the model sent.
//
// Only a cell that is one fence and nothing else is unwrapped: text before
// or after it, or a second fence, means the cell is prose with code in it,
// and gets its own guidance (hasFenceLine). JavaScript has no line that
// starts with three backticks but a chain of template literals (what two
// fences parse as) and a block comment; a JSDoc fence starts with "*".

type fenceKind uint8

const (
	fenceNone       fenceKind = iota
	fenceJavaScript           // no tag, or a JavaScript one
	fenceTypeScript
	fenceShell // the model said itself that this is a shell command
)

// fenceTags are the info strings (their first word, in lower case) of the
// fences that are unwrapped; other tags (python, json, ...) leave the cell
// alone.
var fenceTags = map[string]fenceKind{
	"": fenceJavaScript, "js": fenceJavaScript, "javascript": fenceJavaScript, "mjs": fenceJavaScript,
	"cjs": fenceJavaScript, "node": fenceJavaScript,
	"ts": fenceTypeScript, "typescript": fenceTypeScript, "mts": fenceTypeScript, "cts": fenceTypeScript,
	"sh": fenceShell, "bash": fenceShell, "shell": fenceShell, "zsh": fenceShell, "fish": fenceShell,
	"console": fenceShell, "shell-session": fenceShell, "sh-session": fenceShell, "powershell": fenceShell,
	"ps1": fenceShell, "pwsh": fenceShell, "cmd": fenceShell, "bat": fenceShell, "batch": fenceShell,
}

// unwrapFence returns code with its fence lines blanked when code, but for
// surrounding whitespace, is one markdown code fence: a line of three or more
// backticks and an optional tag, the body, and a line of at least as many
// backticks. kind says what the tag asks for; fenceNone means code is not
// such a fence and comes back unchanged. The work is one pass over the lines.
func unwrapFence(code string) (string, fenceKind) {
	open := len(code) - len(strings.TrimLeft(code, " \t\r\n\ufeff"))
	n := countBackticks(code[open:])
	if n < 3 {
		return code, fenceNone
	}
	eol := strings.IndexByte(code[open:], '\n')
	if eol < 0 {
		return code, fenceNone // one line: inline code, not a fence
	}
	eol += open
	info := strings.TrimSpace(code[open+n : eol])
	if strings.Contains(info, "`") { // CommonMark: then it is not a fence
		return code, fenceNone
	}
	tag, _, _ := strings.Cut(info, " ")
	kind, ok := fenceTags[strings.ToLower(tag)]
	if !ok {
		return code, fenceNone
	}
	end := len(strings.TrimRight(code, " \t\r\n"))
	closeLine := strings.LastIndexByte(code[:end], '\n') + 1
	if closeLine <= eol || !closesFence(code[closeLine:end], n) {
		return code, fenceNone
	}
	body := code[eol+1 : closeLine]
	for rest := body; rest != ""; {
		line, more, _ := strings.Cut(rest, "\n")
		if closesFence(line, n) {
			return code, fenceNone // a fence ends inside: several fences, or text between them
		}
		rest = more
	}
	// The fence lines' text goes; what is around it stays: the whitespace
	// before the opening line (it may hold line breaks), the line breaks,
	// and the whitespace after the closing line.
	return code[:open] + "\n" + body + code[end:], kind
}

func countBackticks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// closesFence reports whether line closes a fence of n backticks: at least n
// backticks and nothing else but spaces.
func closesFence(line string, n int) bool {
	line = strings.TrimSpace(line)
	return len(line) >= n && countBackticks(line) == len(line)
}

// hasFenceLine reports whether a line of code opens or closes a fence.
func hasFenceLine(code string) bool {
	for rest := code; rest != ""; {
		line, more, _ := strings.Cut(rest, "\n")
		if countBackticks(strings.TrimLeft(line, " \t")) >= 3 {
			return true
		}
		rest = more
	}
	return false
}
