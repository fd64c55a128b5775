package abi

import _ "embed"

// BridgeJS is the engine-level guest bridge every engine evaluates once into
// its template, before any host prelude. It consumes the global host
// functions named [HostRequestName] and [HostEmitName] and evaluates to an
// object of the functions an engine calls: settle(ticket, rejected, value),
// encode(value) (the JSON value rule), describe(thrown) and
// reseed(a, b, c, d) for Math.random. Host preludes reach the bridge through
// the global [BridgeGlobal] = { request(op, payload) -> Promise,
// emit(kind, payload), encode(value) -> JSON text } and should delete it.
//
//go:embed bridge.js
var BridgeJS string

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
