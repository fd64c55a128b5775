package quickjswasi

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

type instanceKey struct{}

// instanceOf finds the instance a host call belongs to: every call into a
// guest passes the instance's own context.
func instanceOf(ctx context.Context) *instance {
	return ctx.Value(instanceKey{}).(*instance)
}

const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoNosys   = 52
)

var i32 = api.ValueTypeI32

// instantiateImports provides the module's twelve imports. Nothing of the host
// is reachable through them: no files, sockets, environment or processes.
// Output written to fd 1 and 2 is discarded.
func instantiateImports(ctx context.Context, r wazero.Runtime) error {
	env := r.NewHostModuleBuilder("env")
	fn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		env.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	fn("host_call", hostCall, []api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32})
	fn("host_interrupt", hostInterrupt, nil, []api.ValueType{i32})
	fn("host_promise_rejection", hostPromiseRejection, []api.ValueType{i32, i32, i32}, nil)
	fn("host_module_normalize", returnZero, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("host_module_load", returnZero, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("host_get_timezone_offset", returnZero, []api.ValueType{i32, i32}, []api.ValueType{i32})
	if _, err := env.Instantiate(ctx); err != nil {
		return err
	}

	wasi := r.NewHostModuleBuilder("wasi_snapshot_preview1")
	wfn := func(name string, f api.GoModuleFunc, params []api.ValueType) {
		wasi.NewFunctionBuilder().WithGoModuleFunction(f, params, []api.ValueType{i32}).Export(name)
	}
	wfn("clock_time_get", clockTimeGet, []api.ValueType{i32, api.ValueTypeI64, i32})
	wfn("fd_write", fdWrite, []api.ValueType{i32, i32, i32, i32})
	wfn("fd_close", returnErrno(errnoNosys), []api.ValueType{i32})
	wfn("fd_fdstat_get", fdFdstatGet, []api.ValueType{i32, i32})
	wfn("fd_seek", returnErrno(errnoNosys), []api.ValueType{i32, api.ValueTypeI64, i32, i32})
	wfn("random_get", randomGet, []api.ValueType{i32, i32})
	_, err := wasi.Instantiate(ctx)
	return err
}

func returnZero(_ context.Context, _ api.Module, stack []uint64) { stack[0] = 0 }

func returnErrno(errno uint64) api.GoModuleFunc {
	return func(_ context.Context, _ api.Module, stack []uint64) { stack[0] = errno }
}

func hostCall(ctx context.Context, _ api.Module, stack []uint64) {
	stack[0] = uint64(instanceOf(ctx).hostCall(uint32(stack[0]), uint32(stack[1]), uint32(stack[3]), uint32(stack[4])))
}

func hostInterrupt(ctx context.Context, _ api.Module, stack []uint64) {
	stack[0] = 0
	if instanceOf(ctx).pollInterrupt() {
		stack[0] = 1
	}
}

// hostPromiseRejection sees unhandled rejections; the host owns both boxes.
// Only an uncatchable reason matters: out of memory inside a promise job.
func hostPromiseRejection(ctx context.Context, _ api.Module, stack []uint64) {
	in := instanceOf(ctx)
	if stack[2] == 0 && in.call32(in.fn.isUncatchable, stack[1]) != 0 {
		in.outOfMemory = true
	}
	in.freeValue(uint32(stack[0]))
	in.freeValue(uint32(stack[1]))
}

func clockTimeGet(ctx context.Context, mod api.Module, stack []uint64) {
	var now uint64
	if !instanceOf(ctx).building { // a template must not depend on the time it was built
		now = uint64(time.Now().UnixNano())
	}
	if !mod.Memory().WriteUint64Le(uint32(stack[2]), now) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func fdWrite(_ context.Context, mod api.Module, stack []uint64) {
	iovs, n, out := uint32(stack[1]), uint32(stack[2]), uint32(stack[3])
	fd := stack[0]
	if fd != 1 && fd != 2 {
		stack[0] = errnoBadf
		return
	}
	mem := mod.Memory()
	var total uint32
	for i := range n {
		l, ok := mem.ReadUint32Le(iovs + 8*i + 4)
		if !ok {
			stack[0] = errnoInval
			return
		}
		total += l
	}
	mem.WriteUint32Le(out, total)
	stack[0] = errnoSuccess
}

func fdFdstatGet(_ context.Context, mod api.Module, stack []uint64) {
	fd, out := stack[0], uint32(stack[1])
	if fd != 1 && fd != 2 {
		stack[0] = errnoBadf
		return
	}
	buf, ok := mod.Memory().Read(out, 24)
	if !ok {
		stack[0] = errnoInval
		return
	}
	clear(buf)
	buf[0] = 2 // character device
	stack[0] = errnoSuccess
}

func randomGet(ctx context.Context, mod api.Module, stack []uint64) {
	buf, ok := mod.Memory().Read(uint32(stack[0]), uint32(stack[1]))
	if !ok {
		stack[0] = errnoInval
		return
	}
	if instanceOf(ctx).building {
		clear(buf) // deterministic templates: equal bytes, equal hash, portable snapshots
	} else {
		for i := 0; i < len(buf); i += 8 {
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], rand.Uint64())
			copy(buf[i:], w[:])
		}
	}
	stack[0] = errnoSuccess
}
