package source

import (
	"regexp"
	"strings"
)

// ShellShaped reports whether code looks like a shell command line pasted
// into exec (`ls -la`, `git status`, `FOO=1 make`) rather than a cell. The
// model then gets MsgShellSource, which tells it to call the shell tool from
// JavaScript instead of retrying the command as code.
//
// The rules, in order:
//  1. leading //, /* */ and # comment lines are skipped; a #! line is shell;
//  2. a shell control form (`if [`, `while true;`, `for x in`, `case x in`,
//     `function f {`) is shell when the program does not parse as JavaScript;
//  3. leading VAR=value assignments are skipped;
//  4. the first word must be a candidate: a known command (optionally under
//     /bin/ or /usr/bin/), an identifier that is not a keyword or global, an
//     executable path (./x, ../x, /x, ~/x, C:\x, .\x, ..\x), or a word
//     shaped like a command's name (custom-tool, build.exe); anything else is
//     JavaScript;
//  5. an unknown identifier or command name used like JavaScript (`foo(`,
//     `foo.`, `foo =`, `foo[`, foo`...`) is JavaScript without a parse, so a
//     typo there gets the engine's syntax error rather than advice about shell;
//  6. a program that does not parse (esbuild, as an async function body) is
//     shell; for a command name only when a word, a flag or the end of the
//     statement follows it (`custom-tool --format=json`, not `a-b + (`);
//     a command name in a program that parses is JavaScript (`a-b`, `x.sh`);
//  7. a command name bound by var or function anywhere in the program is
//     JavaScript (`whoami;` next to `function whoami() {}`): prepending
//     `let name;` fails to parse while `var name;` parses;
//  8. otherwise it is shell when the word is followed by `;`, the end of the
//     line (unless the next line continues the expression) or of the input,
//     flags (-x, --x) or, for known commands, `|`, `&&`, `||`, a redirection, a
//     path, or (for jq) a lone `.`.
//
// Only candidates reach the parser, so cells that start with a keyword,
// a global such as tools, a literal or punctuation never pay for one.
// typescript selects the TypeScript parser for step 6 and 7.
func ShellShaped(code string, typescript bool, run esbuild) bool {
	s, hashbang := skipLeadingComments(code)
	if hashbang {
		return true
	}
	if controlForm.MatchString(s) {
		return !parses(s, typescript, run)
	}
	rest := s
	for {
		m := envAssignment.FindStringIndex(rest)
		if m == nil {
			break
		}
		rest = rest[m[1]:]
	}
	word, after := firstWord(rest)
	name, kind := classify(word)
	if kind == notCandidate {
		return false
	}
	if (kind == unknownIdent || kind == commandName) && jsContinuation.MatchString(after) {
		return false
	}
	if !parses(s, typescript, run) {
		return kind != commandName || commandFollower(after)
	}
	if kind == commandName {
		return false // valid JavaScript: a subtraction or a member
	}
	if isIdentifier(name) && hoisted(s, name, typescript, run) {
		return false
	}
	return shellFollower(name, kind, after)
}

type candidate uint8

const (
	notCandidate candidate = iota
	knownCommand
	unknownIdent
	executablePath
	commandName // custom-tool, gradlew.bat: JavaScript only by accident
)

var (
	controlForm = regexp.MustCompile(`^(?:(?:if|while|until)[ \t]+[^ \t(]|for[ \t]+(?:\(\(|[A-Za-z_]\w*[ \t]+in[ \t])|` +
		`case[ \t]+\S+[ \t]+in\b|select[ \t]+[A-Za-z_]\w*[ \t]+in[ \t]|function[ \t]+[\w.-]+[ \t]*\{)`)
	envAssignment  = regexp.MustCompile(`^[A-Za-z_]\w*=(?:'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|[^\s=;&|'"][^\s;&|]*|)[ \t]+`)
	jsContinuation = regexp.MustCompile("^[ \t]*(?:[(\\[`]|\\.[A-Za-z_$#]|\\?\\.|=[^=]|=$|=>)")
	flag           = regexp.MustCompile(`^[ \t]+--?[A-Za-z]`)
	knownFlag      = regexp.MustCompile(`^[ \t]+--?[A-Za-z0-9]`)
	knownPath      = regexp.MustCompile(`^[ \t]+(?:\.{1,2}[/\\]|/|~/|[A-Za-z]:\\)`)
	knownOperator  = regexp.MustCompile(`^[ \t]*(?:\||&&|[0-9]?>|<|&>)`)
	jqDot          = regexp.MustCompile(`^[ \t]+\.(?:$|[ \t\n;|])`)
	pathStart      = regexp.MustCompile(`^(?:\.{1,2}[/\\]|/|~/|[A-Za-z]:\\)`)
	// A command's name: words joined by hyphens, or a file name with an
	// extension that runs. As JavaScript these are a subtraction or a member.
	commandWord = regexp.MustCompile(`^(?:[A-Za-z_]\w*(?:-\w+)+|[A-Za-z_][\w-]*\.(?i:exe|bat|cmd|ps1|sh|py))$`)
	// wordFollower is what follows a command's name on its line: a flag, an
	// argument, a quoted string, a variable.
	wordFollower = regexp.MustCompile(`^[ \t]+(?:--?[A-Za-z0-9]|[\w./~\\"'$])`)
)

// skipLeadingComments drops leading whitespace and comments; a #! line makes
// the input shell at once.
func skipLeadingComments(s string) (rest string, hashbang bool) {
	for {
		s = strings.TrimLeft(s, " \t\r\n\ufeff")
		switch {
		case strings.HasPrefix(s, "#!"):
			return s, true
		case strings.HasPrefix(s, "#"), strings.HasPrefix(s, "//"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return "", false
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return "", false
			}
			s = s[i+2:]
		default:
			return s, false
		}
	}
}

// firstWord splits off a shell word: a path runs to whitespace or a shell
// operator, anything else also stops at JavaScript punctuation.
func firstWord(s string) (word, after string) {
	stop := " \t\r\n;|&<>()[]{}'\"`=,+*!?:"
	if pathStart.MatchString(s) {
		stop = " \t\r\n;|&<>()"
	}
	i := strings.IndexAny(s, stop)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func classify(word string) (name string, kind candidate) {
	switch {
	case word == "":
		return "", notCandidate
	case knownCommands[word]:
		return word, knownCommand
	case strings.HasPrefix(word, "/bin/") && knownCommands[word[5:]]:
		return word[5:], knownCommand
	case strings.HasPrefix(word, "/usr/bin/") && knownCommands[word[9:]]:
		return word[9:], knownCommand
	case pathStart.MatchString(word) && len(word) > 1:
		return word, executablePath
	case isIdentifier(word) && !jsKeywords[word] && !jsGlobals[word]:
		return word, unknownIdent
	case commandWord.MatchString(word):
		return word, commandName
	}
	return "", notCandidate
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// hoisted reports whether name is declared with var or function somewhere in
// the program, using the parser's redeclaration errors.
func hoisted(code, name string, typescript bool, run esbuild) bool {
	return !parses("let "+name+";\n"+code, typescript, run) && parses("var "+name+";\n"+code, typescript, run)
}

func shellFollower(name string, kind candidate, after string) bool {
	if endsStatement(after) || flag.MatchString(after) {
		return true
	}
	if kind != knownCommand {
		return false
	}
	return knownFlag.MatchString(after) || knownPath.MatchString(after) || knownOperator.MatchString(after) ||
		name == "jq" && jqDot.MatchString(after)
}

// commandFollower reports whether what follows a command's name in code
// that does not parse makes it a command line: arguments, flags, a shell
// operator or the end of the statement, not JavaScript operators.
func commandFollower(after string) bool {
	return endsStatement(after) || wordFollower.MatchString(after) || knownOperator.MatchString(after)
}

// endsStatement reports whether after is `;`, the end of input, or a line
// break not followed by something that continues the expression (`.x`,
// `(`, an operator), which would make `foo\n  .bar()` JavaScript.
func endsStatement(after string) bool {
	after = strings.TrimLeft(after, " \t")
	if after == "" || after[0] == ';' {
		return true
	}
	if after[0] != '\n' && after[0] != '\r' {
		return false
	}
	next, _ := skipLeadingComments(after)
	return next == "" || !strings.ContainsRune(".([`?+-*/%&|^<>=,", rune(next[0]))
}
