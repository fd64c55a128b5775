package driver

import (
	"encoding/binary"
	"math/rand/v2"
	"time"

	"github.com/seed11a79d2d/codemode/abi"
)

// Import is one of the module's imports, numbered by its index in [Imports].
type Import struct {
	Module, Name string
	Sig          Signature
}

const (
	impHostCall = iota
	impHostInterrupt
	impHostPromiseRejection
	impHostModuleNormalize
	impHostModuleLoad
	impHostGetTimezoneOffset
	impClockTimeGet
	impFdWrite
	impFdClose
	impFdFdstatGet
	impFdSeek
	impRandomGet
	numImports
)

// Imports are the module's twelve imports; each runtime binds import i to
// [Instance.CallImport](i, ...). Nothing of the host is reachable through
// them: no files, sockets, environment or processes. Output written to fd 1
// and 2 is discarded.
var Imports = [numImports]Import{
	impHostCall:              {"env", "host_call", "iiiii>i"},
	impHostInterrupt:         {"env", "host_interrupt", ">i"},
	impHostPromiseRejection:  {"env", "host_promise_rejection", "iii>"},
	impHostModuleNormalize:   {"env", "host_module_normalize", "ii>i"},
	impHostModuleLoad:        {"env", "host_module_load", "ii>i"},
	impHostGetTimezoneOffset: {"env", "host_get_timezone_offset", "ii>i"},
	impClockTimeGet:          {"wasi_snapshot_preview1", "clock_time_get", "iIi>i"},
	impFdWrite:               {"wasi_snapshot_preview1", "fd_write", "iiii>i"},
	impFdClose:               {"wasi_snapshot_preview1", "fd_close", "i>i"},
	impFdFdstatGet:           {"wasi_snapshot_preview1", "fd_fdstat_get", "ii>i"},
	impFdSeek:                {"wasi_snapshot_preview1", "fd_seek", "iIii>i"},
	impRandomGet:             {"wasi_snapshot_preview1", "random_get", "ii>i"},
}

const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoNosys   = 52
)

// CallImport runs import i with its arguments encoded as for [Module.Call]
// and returns its i32 result (0 when it has none).
func (in *Instance) CallImport(i int, args []uint64) uint32 {
	switch i {
	case impHostCall:
		return in.hostCall(uint32(args[0]), uint32(args[1]), uint32(args[3]), uint32(args[4]))
	case impHostInterrupt:
		// Also the tick of every guest loop (see package preempt): the one
		// place a guest that never polls QuickJS's handler is stopped.
		if in.stopAt != 0 && time.Now().UnixNano() > in.stopAt {
			in.dead = true
			panic(ErrStopped)
		}
		if in.pollInterrupt() {
			return 1
		}
		return 0
	case impHostPromiseRejection:
		// The host owns both boxes. Only an uncatchable reason matters: out
		// of memory inside a promise job.
		if uint32(args[2]) == 0 && in.call(fnIsUncatchable, uint64(uint32(args[1]))) != 0 {
			in.outOfMemory = true
		}
		in.freeValue(uint32(args[0]))
		in.freeValue(uint32(args[1]))
		return 0
	case impClockTimeGet:
		return in.clockTimeGet(uint32(args[2]))
	case impFdWrite:
		return in.fdWrite(uint32(args[0]), uint32(args[1]), uint32(args[2]), uint32(args[3]))
	case impFdFdstatGet:
		return in.fdFdstatGet(uint32(args[0]), uint32(args[1]))
	case impRandomGet:
		return in.randomGet(uint32(args[0]), uint32(args[1]))
	case impFdClose, impFdSeek:
		return errnoNosys
	}
	return 0 // modules, and a timezone offset of 0: UTC
}

// hostCall dispatches env.host_call by the function's stable name.
func (in *Instance) hostCall(namePtr, nameLen, argc, argv uint32) uint32 {
	name := in.bytes(namePtr, nameLen)
	isRequest, isEmit := string(name) == abi.HostRequestName, string(name) == abi.HostEmitName
	if !isRequest && !isEmit {
		return in.throwError("unknown host function")
	}
	var arg [2]string
	for i := range min(argc, 2) {
		box := binary.LittleEndian.Uint32(in.bytes(argv+4*i, 4))
		if s, ok := in.goString(box); ok {
			arg[i] = s
		} else {
			return 0 // ToString threw; the exception is already pending
		}
	}
	if in.host == nil {
		return in.throwError("the host is unavailable")
	}
	if isRequest {
		t, err := in.host.Request(arg[0], arg[1])
		if err != nil {
			return in.throwError(err.Error())
		}
		return in.newNumber(float64(t))
	}
	kind := abi.OutputText
	if arg[0] == "1" {
		kind = abi.OutputJSON
	}
	if err := in.host.Emit(kind, arg[1]); err != nil {
		return in.throwError(err.Error())
	}
	return in.call(fnGetUndefined)
}

func (in *Instance) pollInterrupt() bool {
	if in.interrupted == abi.InterruptNone && in.host != nil {
		in.interrupted = in.host.ShouldInterrupt()
	}
	return in.interrupted != abi.InterruptNone
}

func (in *Instance) clockTimeGet(out uint32) uint32 {
	var now uint64
	if !in.building { // a template must not depend on the time it was built
		now = uint64(time.Now().UnixNano())
	}
	b, ok := in.view(out, 8)
	if !ok {
		return errnoInval
	}
	binary.LittleEndian.PutUint64(b, now)
	return errnoSuccess
}

func (in *Instance) fdWrite(fd, iovs, n, out uint32) uint32 {
	if fd != 1 && fd != 2 {
		return errnoBadf
	}
	var total uint32
	for i := range n {
		l, ok := in.view(iovs+8*i+4, 4)
		if !ok {
			return errnoInval
		}
		total += binary.LittleEndian.Uint32(l)
	}
	b, ok := in.view(out, 4)
	if !ok {
		return errnoInval
	}
	binary.LittleEndian.PutUint32(b, total)
	return errnoSuccess
}

func (in *Instance) fdFdstatGet(fd, out uint32) uint32 {
	if fd != 1 && fd != 2 {
		return errnoBadf
	}
	buf, ok := in.view(out, 24)
	if !ok {
		return errnoInval
	}
	clear(buf)
	buf[0] = 2 // character device
	return errnoSuccess
}

func (in *Instance) randomGet(p, n uint32) uint32 {
	buf, ok := in.view(p, n)
	if !ok {
		return errnoInval
	}
	if in.building {
		clear(buf) // deterministic templates: equal bytes, equal hash, portable snapshots
	} else {
		for i := 0; i < len(buf); i += 8 {
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], rand.Uint64())
			copy(buf[i:], w[:])
		}
	}
	return errnoSuccess
}
