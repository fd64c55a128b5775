//go:build wasmtime

package wasmtime

import (
	"encoding/binary"
	"math/rand/v2"
	"time"

	wt "github.com/bytecodealliance/wasmtime-go/v25"
)

const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoNosys   = 52
)

// hostFunc is one of the module's twelve imports.
type hostFunc struct {
	params  []wt.ValKind
	results []wt.ValKind
	// fn returns the i32 result; it is ignored when results is empty.
	fn func(in *instance, args hostArgs) int32
}

var (
	i32 = wt.KindI32
	i64 = wt.KindI64
)

// hostFuncs provides the module's twelve imports, keyed "module.name".
// Nothing of the host is reachable through them: no files, sockets,
// environment or processes. Output written to fd 1 and 2 is discarded. They
// behave exactly like the wazero engine's, so both build the same template.
var hostFuncs = map[string]hostFunc{
	"env.host_call": {[]wt.ValKind{i32, i32, i32, i32, i32}, []wt.ValKind{i32}, func(in *instance, a hostArgs) int32 {
		return int32(in.hostCall(uint32(a.i32(0)), uint32(a.i32(1)), uint32(a.i32(3)), uint32(a.i32(4))))
	}},
	"env.host_interrupt": {nil, []wt.ValKind{i32}, func(in *instance, _ hostArgs) int32 {
		if in.pollInterrupt() {
			return 1
		}
		return 0
	}},
	// Unhandled rejections; the host owns both boxes. Only an uncatchable
	// reason matters: out of memory inside a promise job.
	"env.host_promise_rejection": {[]wt.ValKind{i32, i32, i32}, nil, func(in *instance, a hostArgs) int32 {
		if a.i32(2) == 0 && in.call(&in.fn.isUncatchable, uint32(a.i32(1))) != 0 {
			in.outOfMemory = true
		}
		in.freeValue(uint32(a.i32(0)))
		in.freeValue(uint32(a.i32(1)))
		return 0
	}},
	"env.host_module_normalize":    {[]wt.ValKind{i32, i32}, []wt.ValKind{i32}, returnZero},
	"env.host_module_load":         {[]wt.ValKind{i32, i32}, []wt.ValKind{i32}, returnZero},
	"env.host_get_timezone_offset": {[]wt.ValKind{i32, i32}, []wt.ValKind{i32}, returnZero},

	"wasi_snapshot_preview1.clock_time_get": {[]wt.ValKind{i32, i64, i32}, []wt.ValKind{i32}, clockTimeGet},
	"wasi_snapshot_preview1.fd_write":       {[]wt.ValKind{i32, i32, i32, i32}, []wt.ValKind{i32}, fdWrite},
	"wasi_snapshot_preview1.fd_close":       {[]wt.ValKind{i32}, []wt.ValKind{i32}, returnErrno(errnoNosys)},
	"wasi_snapshot_preview1.fd_fdstat_get":  {[]wt.ValKind{i32, i32}, []wt.ValKind{i32}, fdFdstatGet},
	"wasi_snapshot_preview1.fd_seek":        {[]wt.ValKind{i32, i64, i32, i32}, []wt.ValKind{i32}, returnErrno(errnoNosys)},
	"wasi_snapshot_preview1.random_get":     {[]wt.ValKind{i32, i32}, []wt.ValKind{i32}, randomGet},
}

func returnZero(*instance, hostArgs) int32 { return 0 }

func returnErrno(errno int32) func(*instance, hostArgs) int32 {
	return func(*instance, hostArgs) int32 { return errno }
}

func clockTimeGet(in *instance, a hostArgs) int32 {
	var now uint64
	if !in.building { // a template must not depend on the time it was built
		now = uint64(time.Now().UnixNano())
	}
	b, ok := in.view(uint32(a.i32(2)), 8)
	if !ok {
		return errnoInval
	}
	binary.LittleEndian.PutUint64(b, now)
	return errnoSuccess
}

func fdWrite(in *instance, a hostArgs) int32 {
	fd, iovs, n, out := a.i32(0), uint32(a.i32(1)), uint32(a.i32(2)), uint32(a.i32(3))
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

func fdFdstatGet(in *instance, a hostArgs) int32 {
	fd, out := a.i32(0), uint32(a.i32(1))
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

func randomGet(in *instance, a hostArgs) int32 {
	buf, ok := in.view(uint32(a.i32(0)), uint32(a.i32(1)))
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
