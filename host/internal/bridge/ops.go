// Package bridge is the host's half of the guest bridge: the one table of the
// ops a cell sends through abi.Host.Request, and the encoding of the answers
// that settle them.
//
// An op's wire name is spelled here and nowhere else in the host: the cell
// looks a request's name up once, and from then on every stage (the pending
// bound, the restart-safe check, the resolver, the worker) reads the typed
// [Op] and its row. ops_test.go keeps the table and the guest scripts that
// send the ops (host/prelude.js, abi/*.js, bridgeabi.wit) in step.
package bridge

// Op is one bridge operation.
type Op uint8

// The ops, by what sends them. Unknown is a name the table does not know: it
// is refused like a bad argument, after its payload is decoded.
const (
	Unknown Op = iota

	// Catalog reads, from the host prelude's tools, MCP and API objects.
	Search    // tools.search(query, options)
	Describe  // tools.describe(id)
	MCPSearch // MCP.$search(query, options)
	MCPAPI    // MCP.$api() and MCP.<server>.$api(tool?, options?)
	APIList   // API.list(prefix?)
	APIRead   // API.read(path)

	// Tool calls.
	Call       // tools.call(id, input)
	CallValue  // tools.callValue(id, input)
	MCP        // MCP.<server>.<tool>(input)
	MCPRequest // MCP.<server>.resources.* and prompts.*

	Namespace // a plugin namespace function
	Store     // store(key, value?), from the environment scripts
	Load      // load(key), from the environment scripts

	Agent // agents.run(prompt, options?), tools.swarm
	Phase // phase(title), tools.swarm
	Log   // log(message), tools.swarm

	Yield      // yield_control(reason?)
	Timer      // setTimeout and setInterval, from the environment scripts
	TimerClear // clearTimeout and clearInterval, from the environment scripts

	numOps
)

// Kind says what a request of an op waits for.
type Kind uint8

const (
	Work     Kind = iota // host work on a worker: a call, a read, store, load
	Yielding             // yield_control: the run parks for wait
	Timed                // a guest timer: due after its delay
	Clearing             // timer_clear: answered at once, never settled
	Noting               // phase and log: recorded, never settled
)

// Counter is the telemetry count a request of an op adds to.
type Counter uint8

const (
	NoCount Counter = iota
	Searches
	Describes
	Calls
)

// Payload says how much of a request's payload the bridge decodes.
type Payload uint8

const (
	Decoded Payload = iota // the prelude's members: decoded once, by Decode
	Opaque                 // the op decodes its own (store, load, namespace, agents.run, phase, log)
	Unread                 // nothing for the bridge to decode (yield; a timer parses its own)
)

// row is one op's entry in the table.
type row struct {
	name    string
	kind    Kind
	payload Payload
	count   Counter
	// read marks a catalog read, answered from the run's immutable table:
	// replay-safe, whatever the tools are.
	read bool
	// replaySafe marks an op that is replay-safe though no read (load).
	replaySafe bool
	// bounded ops are refused once maxPendingToolCalls requests are
	// undelivered; agents.run has bounds of its own (tools.swarm), and
	// yields and timers theirs.
	bounded bool
}

// table is every op; its index is the Op.
var table = [numOps]row{
	Unknown: {kind: Work, bounded: true},

	Search:    {name: "search", count: Searches, read: true, bounded: true},
	Describe:  {name: "describe", count: Describes, read: true, bounded: true},
	MCPSearch: {name: "mcp_search", count: Searches, read: true, bounded: true},
	MCPAPI:    {name: "mcp_api", read: true, bounded: true},
	APIList:   {name: "api_list", read: true, bounded: true},
	APIRead:   {name: "api_read", read: true, bounded: true},

	Call:       {name: "call", count: Calls, bounded: true},
	CallValue:  {name: "callValue", count: Calls, bounded: true},
	MCP:        {name: "mcp", count: Calls, bounded: true},
	MCPRequest: {name: "mcp_request", count: Calls, bounded: true},

	Namespace: {name: "namespace", payload: Opaque, count: Calls, bounded: true},
	Store:     {name: "store", payload: Opaque, bounded: true},
	Load:      {name: "load", payload: Opaque, replaySafe: true, bounded: true},

	Agent: {name: "agents.run", payload: Opaque},
	Phase: {name: "phase", kind: Noting, payload: Opaque},
	Log:   {name: "log", kind: Noting, payload: Opaque},

	Yield:      {name: "yield", kind: Yielding, payload: Unread},
	Timer:      {name: "timer", kind: Timed, payload: Unread},
	TimerClear: {name: "timer_clear", kind: Clearing, payload: Unread},
}

// byName is the table's index by wire name.
var byName = func() map[string]Op {
	m := make(map[string]Op, numOps)
	for op := Unknown + 1; op < numOps; op++ {
		m[table[op].name] = op
	}
	return m
}()

// Lookup is the op of a wire name, or Unknown.
func Lookup(name string) Op { return byName[name] }

// String is the op's wire name ("" for Unknown).
func (op Op) String() string { return op.row().name }

func (op Op) row() *row {
	if op >= numOps {
		op = Unknown
	}
	return &table[op]
}

// Kind is what a request of the op waits for.
func (op Op) Kind() Kind { return op.row().kind }

// Payload is how much of the op's payload the bridge decodes.
func (op Op) Payload() Payload { return op.row().payload }

// Counter is the telemetry count the op adds to.
func (op Op) Counter() Counter { return op.row().count }

// Read reports a catalog read, answered from the run's immutable table.
func (op Op) Read() bool { return op.row().read }

// ReplaySafe reports an op that a restart-safe run may replay whatever its
// target: a read, or load.
func (op Op) ReplaySafe() bool { return op.row().read || op.row().replaySafe }

// Bounded reports an op whose new requests are refused once
// maxPendingToolCalls requests are undelivered.
func (op Op) Bounded() bool { return op.row().bounded }
