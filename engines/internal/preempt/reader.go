package preempt

import (
	"errors"
	"fmt"
)

// reader decodes the parts of the wasm binary format Instrument walks. The
// first error sticks; reads after it return zero values.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) done() bool { return r.i >= len(r.b) || r.err != nil }

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: %s", r.i, msg)
	}
}

var errShort = errors.New("unexpected end")

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		if r.err == nil {
			r.err = errShort
		}
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) bytes(n uint32) []byte {
	if uint64(r.i)+uint64(n) > uint64(len(r.b)) {
		if r.err == nil {
			r.err = errShort
		}
		return nil
	}
	s := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	return s
}

// leb skips an LEB128 number of at most max bytes and returns its low 32
// bits, read as unsigned.
func (r *reader) leb(max int) uint32 {
	var v uint32
	for k := 0; k < max; k++ {
		c := r.byte()
		if k < 5 {
			v |= uint32(c&0x7f) << (7 * k)
		}
		if c < 0x80 {
			return v
		}
	}
	r.fail("LEB128 number too long")
	return 0
}

func (r *reader) u32() uint32 { return r.leb(5) }

// count reads the length of a vector whose items take a byte or more each:
// a length past the bytes left is an error, not a loop of billions.
func (r *reader) count() int {
	n := r.u32()
	if uint64(n) > uint64(len(r.b)-r.i) {
		r.fail("vector longer than its section")
		return 0
	}
	return int(n)
}

func (r *reader) skip(n int) { r.bytes(uint32(n)) }

// valType reads a value type: a number, vector or reference type byte.
func (r *reader) valType() {
	switch c := r.byte(); c {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
	default:
		r.fail(fmt.Sprintf("unsupported value type %#x", c))
	}
}

func (r *reader) limits() {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

// blockType reads the type of a block, loop or if: empty, a value type, or
// a type index (a positive s33).
func (r *reader) blockType() {
	if r.i < len(r.b) {
		switch r.b[r.i] {
		case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
			r.i++
			return
		}
	}
	r.leb(5)
}

func (r *reader) memarg() {
	if r.u32()&0x40 != 0 { // multi-memory: a memory index follows
		r.u32()
	}
	r.leb(10) // the offset is a u64 for memory64
}

// immediates skips the immediates of instruction op. Opcodes outside the
// features Instrument supports (core wasm 2.0 without SIMD, exceptions or
// threads) are an error rather than a guess.
func (r *reader) immediates(op byte) {
	switch {
	case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
		r.blockType()
	case op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 || // br, br_if, call, return_call
		op >= 0x20 && op <= 0x26 || op == 0xd2: // locals, globals, table.get/set, ref.func
		r.u32()
	case op == 0x0e: // br_table
		for n := r.count(); n > 0; n-- {
			r.u32()
		}
		r.u32()
	case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
		r.u32()
		r.u32()
	case op == 0x1c: // select t*
		for n := r.count(); n > 0; n-- {
			r.valType()
		}
	case op >= 0x28 && op <= 0x3e: // loads and stores
		r.memarg()
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		r.u32()
	case op == 0x41:
		r.leb(5)
	case op == 0x42:
		r.leb(10)
	case op == 0x43:
		r.skip(4)
	case op == 0x44:
		r.skip(8)
	case op == 0xd0: // ref.null
		r.valType()
	case op == 0xfc:
		r.prefixed()
	case op <= 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b ||
		op >= 0x45 && op <= 0xc4 || op == 0xd1:
	default:
		r.fail(fmt.Sprintf("unsupported opcode %#x", op))
	}
}

// prefixed skips a 0xfc instruction: saturating truncation, bulk memory and
// table operations.
func (r *reader) prefixed() {
	switch sub := r.u32(); {
	case sub <= 7:
	case sub == 8 || sub == 10 || sub == 12 || sub == 14: // memory.init, memory.copy, table.init, table.copy
		r.u32()
		r.u32()
	case sub == 9 || sub == 11 || sub == 13 || sub >= 15 && sub <= 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
		r.u32()
	default:
		r.fail(fmt.Sprintf("unsupported opcode 0xfc %d", sub))
	}
}
