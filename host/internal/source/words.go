package source

import "strings"

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// knownCommands are programs a model is likely to type into exec when it
// means the shell tool. They are matched as the first word only, so a cell may
// still use these names as variables (`const ls = ...`, `find(x)`).
// `export` is here although it is a keyword: `export PATH=...` never parses
// as a cell body, and the shell message helps more than a syntax error.
var knownCommands = wordSet(`
	ls cd pwd whoami echo printf cat head tail less more grep rg find fd sed awk sort uniq wc
	cut tr tee xargs diff cp mv rm mkdir rmdir touch chmod chown ln file du df tree basename
	dirname tar zip unzip gzip gunzip curl wget ssh scp rsync ping lsof git gh npm npx pnpm
	yarn bun deno node tsc python python3 pip pip3 poetry uv pytest ruby gem bundle go cargo
	rustc make cmake gcc clang java javac mvn gradle dotnet php perl docker docker-compose
	podman kubectl terraform aws gcloud brew apt apt-get sudo su env export unset alias which
	ps top kill killall pkill uname id date vim nano sh bash zsh source systemctl nohup sleep
	exit jq sqlite3 psql mysql
`)

// jsKeywords never start a shell candidate: reserved words, contextual
// keywords and the TypeScript declaration keywords.
var jsKeywords = wordSet(`
	break case catch class const continue debugger default delete do else enum extends
	false finally for function if import in instanceof new null return super switch this
	throw true try typeof var void while with yield let static await async of implements
	interface package private protected public arguments eval undefined NaN Infinity
	type namespace declare abstract readonly module
`)

// jsGlobals are globals of the guest: ECMAScript built-ins and the code-mode
// API. A cell starting with one of them is JavaScript.
var jsGlobals = wordSet(`
	globalThis Object Function Array Number Boolean String Symbol BigInt Math JSON Date
	RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError
	AggregateError Promise Proxy Reflect Map Set WeakMap WeakSet WeakRef
	FinalizationRegistry ArrayBuffer SharedArrayBuffer DataView Atomics Int8Array
	Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array
	Float64Array BigInt64Array BigUint64Array Intl Iterator parseInt parseFloat isNaN
	isFinite encodeURI decodeURI encodeURIComponent decodeURIComponent escape unescape
	console queueMicrotask structuredClone setTimeout clearTimeout
	Buffer Blob Headers AbortController AbortSignal EventTarget
	tools ALL_TOOLS MCP API namespaces text json yield_control
`)
