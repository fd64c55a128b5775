package abi

import _ "embed"

// BridgeJS is the engine-level guest bridge every engine evaluates once into
// its template, before any host prelude. It consumes the global host
// functions named [HostRequestName] and [HostEmitName] and evaluates to an
// object of the functions an engine calls: settle(ticket, rejected, value),
// encode(value) (the JSON value rule), describe(thrown) and
// reseed(w0, ..., w11): twelve 32-bit words from the engine's CSPRNG on
// every reset and restore, four for Math.random and eight for crypto. The
// environment scripts and host preludes reach the bridge through the global
// [BridgeGlobal] = { request(op, payload) -> Promise, emit(kind, payload),
// encode(value) -> JSON text, fill(Uint8Array) }; a prelude should delete it.
//
//go:embed bridge.js
var BridgeJS string

// ReseedWords is how many 32-bit words reseed takes.
const ReseedWords = 12

// Script is one named guest script.
type Script struct{ Name, Source string }

// EnvScripts are the guest environment models expect of modern JavaScript
// (web APIs, Buffer, Blob and Headers, console, timers, store/load, events
// and AbortController, Intl), evaluated by every engine in order right after
// [BridgeJS]. They reach the host only through the
// bridge's request and emit, with the ops listed in bridgeabi.wit; Intl is
// synchronous and lives wholly in the guest (intl.go).
var EnvScripts = []Script{{"web.js", webJS}, {"buffer.js", bufferJS}, {"blob.js", blobJS},
	{"console.js", consoleJS}, {"env.js", envJS}, {"events.js", eventsJS},
	{"tzdata.js", tzdataJS}, {"intldata.js", intldataJS}, {"intl.js", intlJS}}

var (
	//go:embed web.js
	webJS string
	//go:embed console.js
	consoleJS string
	//go:embed env.js
	envJS string
	//go:embed buffer.js
	bufferJS string
	//go:embed blob.js
	blobJS string
	//go:embed events.js
	eventsJS string
)

// Stable names of the bridge's globals; snapshots find host callbacks by them.
const (
	HostRequestName = "__cm_host_request"
	HostEmitName    = "__cm_host_emit"
	BridgeGlobal    = "__cm_bridge"
)

// WrapCell wraps a cell body so that it starts on the wrapper's first line:
// return gives the value, await works at top level, top-level bindings stay
// local, and error line numbers match the source.
func WrapCell(source string) string {
	return "(async () => {" + source + "\n})()"
}
