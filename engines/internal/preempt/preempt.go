// Package preempt instruments a wasm module so that its code returns to the
// host at a bounded interval, whatever it runs.
//
// wazero runs compiled guest code on the calling goroutine, where Go can
// neither preempt it nor stop it: a QuickJS builtin that loops in C (a sort,
// a join over a huge length, the parser, a regex) holds its goroutine, and
// every stop-the-world garbage collection waits for it, so one cell freezes
// the process. wazero's own remedy (RuntimeConfig.WithCloseOnContextDone)
// leaves native code at every loop iteration, which measured 8x slower on
// guest-bound cells. Instead, every loop header and function entry of the
// instrumented module decrements a counter in a new global and, each time
// it reaches zero, calls a host function that the module already imports.
// That call is ordinary Go code: the scheduler can preempt the goroutine
// there, and the host can stop the guest by panicking.
package preempt

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Instrument returns a copy of module in which every loop header and
// function entry counts down a new mutable i32 global from every and, at
// zero, resets it and calls the imported function importModule.importName,
// whose type must be [] -> [] or [] -> [i32] (a result is dropped). Custom
// sections are kept; they must not describe code offsets (DWARF), which move.
func Instrument(module []byte, importModule, importName string, every uint32) ([]byte, error) {
	if every == 0 {
		return nil, errors.New("preempt: every must be positive")
	}
	if len(module) < 8 || string(module[:4]) != "\x00asm" || binary.LittleEndian.Uint32(module[4:8]) != 1 {
		return nil, errors.New("preempt: not a version 1 wasm module")
	}
	var m moduleInfo
	secs, err := m.scan(module)
	if err != nil {
		return nil, err
	}
	fn, dropResult, err := m.findImport(importModule, importName)
	if err != nil {
		return nil, err
	}
	global := m.importedGlobals + m.definedGlobals

	// The snippet, at a loop header or a function's first instruction:
	//   global.get g; i32.const 1; i32.sub; global.set g
	//   global.get g; i32.eqz; if
	//     i32.const every; global.set g; call fn; [drop]
	//   end
	var tick []byte
	tick = append(tick, 0x23)
	tick = appendU32(tick, global)
	tick = append(tick, 0x41, 0x01, 0x6b, 0x24)
	tick = appendU32(tick, global)
	tick = append(tick, 0x23)
	tick = appendU32(tick, global)
	tick = append(tick, 0x45, 0x04, 0x40, 0x41)
	tick = appendS32(tick, int32(every))
	tick = append(tick, 0x24)
	tick = appendU32(tick, global)
	tick = append(tick, 0x10)
	tick = appendU32(tick, fn)
	if dropResult {
		tick = append(tick, 0x1a)
	}
	tick = append(tick, 0x0b)

	out := make([]byte, 0, len(module)+len(module)/4)
	out = append(out, module[:8]...)
	addedGlobal := false
	for _, s := range secs {
		var body []byte
		switch {
		case s.id == secGlobal:
			body = appendGlobal(s.body, every)
			addedGlobal = true
		case s.id > secGlobal && s.id != secCustom && s.id != secTag && !addedGlobal:
			// Sections are ordered by id except data count (12), which
			// comes before code, and tag (13), which comes before globals.
			// No global section: put one in its place, before the exports.
			out = appendSection(out, secGlobal, appendGlobal([]byte{0}, every))
			addedGlobal = true
			fallthrough
		default:
			body = s.body
		}
		if s.id == secCode {
			if body, err = instrumentCode(body, tick); err != nil {
				return nil, err
			}
		}
		out = appendSection(out, s.id, body)
	}
	if !addedGlobal {
		out = appendSection(out, secGlobal, appendGlobal([]byte{0}, every))
	}
	return out, nil
}

const (
	secCustom = 0
	secType   = 1
	secImport = 2
	secGlobal = 6
	secCode   = 10
	secTag    = 13
)

type section struct {
	id   byte
	body []byte
}

type moduleInfo struct {
	types           [][2]int // parameter and result counts of each type
	imports         []imported
	importedGlobals uint32
	definedGlobals  uint32
}

type imported struct {
	module, name string
	kind         byte
	typ          uint32
}

// scan splits the module into sections and reads what Instrument needs.
func (m *moduleInfo) scan(b []byte) ([]section, error) {
	r := reader{b: b, i: 8}
	var secs []section
	for !r.done() {
		id := r.byte()
		n := r.u32()
		body := r.bytes(n)
		if r.err != nil {
			return nil, fmt.Errorf("preempt: section %d: %w", id, r.err)
		}
		secs = append(secs, section{id, body})
		s := reader{b: body}
		switch id {
		case secType:
			m.readTypes(&s)
		case secImport:
			m.readImports(&s)
		case secGlobal:
			m.definedGlobals = s.u32()
		}
		if s.err != nil {
			return nil, fmt.Errorf("preempt: section %d: %w", id, s.err)
		}
	}
	return secs, nil
}

func (m *moduleInfo) readTypes(r *reader) {
	for n := r.count(); n > 0; n-- {
		if r.byte() != 0x60 {
			r.fail("type is not a function type")
			return
		}
		var pr [2]int
		for k := range pr {
			n := r.count()
			for range n {
				r.valType()
			}
			pr[k] = n
		}
		m.types = append(m.types, pr)
	}
}

func (m *moduleInfo) readImports(r *reader) {
	for n := r.count(); n > 0; n-- {
		im := imported{module: string(r.bytes(r.u32())), name: string(r.bytes(r.u32())), kind: r.byte()}
		switch im.kind {
		case 0: // function
			im.typ = r.u32()
		case 1: // table
			r.valType()
			r.limits()
		case 2: // memory
			r.limits()
		case 3: // global
			r.valType()
			r.byte()
			m.importedGlobals++
		case 4: // tag
			r.byte()
			r.u32()
		default:
			r.fail("unknown import kind")
		}
		if r.err != nil {
			return
		}
		m.imports = append(m.imports, im)
	}
}

// findImport returns the function index of an imported function of type
// [] -> [] or [] -> [i32], and whether its result must be dropped.
func (m *moduleInfo) findImport(module, name string) (uint32, bool, error) {
	var fn uint32
	for _, im := range m.imports {
		if im.kind != 0 {
			continue
		}
		if im.module == module && im.name == name {
			if int(im.typ) >= len(m.types) || m.types[im.typ][0] != 0 || m.types[im.typ][1] > 1 {
				return 0, false, fmt.Errorf("preempt: %s.%s must take no arguments and return at most one i32", module, name)
			}
			return fn, m.types[im.typ][1] == 1, nil
		}
		fn++
	}
	return 0, false, fmt.Errorf("preempt: the module does not import %s.%s", module, name)
}

// appendGlobal adds the counter to a global section's body.
func appendGlobal(body []byte, every uint32) []byte {
	r := reader{b: body}
	n := r.u32()
	out := appendU32(nil, n+1)
	out = append(out, body[r.i:]...)
	out = append(out, 0x7f, 0x01, 0x41) // mutable i32, i32.const
	out = appendS32(out, int32(every))
	return append(out, 0x0b)
}

// instrumentCode inserts tick into every function body of a code section.
func instrumentCode(body, tick []byte) ([]byte, error) {
	r := reader{b: body}
	n := r.count()
	out := appendU32(make([]byte, 0, len(body)+len(body)/4), uint32(n))
	var fn []byte
	for i := range n {
		size := r.u32()
		code := r.bytes(size)
		if r.err != nil {
			return nil, fmt.Errorf("preempt: function %d: %w", i, r.err)
		}
		var err error
		if fn, err = instrumentFunc(fn[:0], code, tick); err != nil {
			return nil, fmt.Errorf("preempt: function %d: %w", i, err)
		}
		out = appendU32(out, uint32(len(fn)))
		out = append(out, fn...)
	}
	if !r.done() {
		return nil, errors.New("preempt: trailing bytes in the code section")
	}
	return out, nil
}

// instrumentFunc copies one function body (locals, then instructions) into
// out with tick after the locals and after every loop's block type.
func instrumentFunc(out, code, tick []byte) ([]byte, error) {
	r := reader{b: code}
	for n := r.count(); n > 0; n-- {
		r.u32()
		r.valType()
	}
	if r.err != nil {
		return nil, r.err
	}
	out = append(out, code[:r.i]...)
	out = append(out, tick...)
	from := r.i
	for !r.done() && r.err == nil {
		op := r.byte()
		r.immediates(op)
		if op == 0x03 { // loop
			out = append(out, code[from:r.i]...)
			out = append(out, tick...)
			from = r.i
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return append(out, code[from:]...), nil
}

func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = appendU32(out, uint32(len(body)))
	return append(out, body...)
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendS32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
