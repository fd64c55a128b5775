package driver

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"

	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// Building the template runs QuickJS's init and evaluates the bridge, the
// environment scripts and the prelude (about 100 KB of JavaScript): half of
// a warm engine start. The build is deterministic, so its result is kept in
// the cache directory and a later start of the same binary, module and
// prelude loads it into a fresh instance the way the pool fills up.

// maxTemplateFile bounds a template entry read back; templates are ~2 MiB.
const maxTemplateFile = 256 << 20

// templateFile is this engine's template cache entry, "" for none.
func (e *Engine) templateFile() string {
	return CacheFile(e.cfg.TemplateCache, "template", ".img", e.cfg.Runtime, e.cfg.ModuleHash, e.cfg.Prelude)
}

// startTemplate loads the template from the cache or builds it (and caches
// it), returning the first instance, at template state.
func (e *Engine) startTemplate(ctx context.Context) (*Instance, error) {
	file := e.templateFile()
	if file != "" {
		t, err := readTemplate(file)
		if err == nil {
			e.tmpl = t
			return e.acquireNew(ctx)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			e.cfg.Logger.Warn("template cache entry unusable; building the template", "file", file, "err", err)
		}
	}
	in, err := e.buildTemplate(ctx)
	if err == nil && file != "" {
		if werr := WriteCache(file, e.tmpl.marshal()); werr != nil {
			e.cfg.Logger.Warn("template cache entry not written", "file", file, "err", werr)
		}
	}
	return in, err
}

// acquireNew instantiates the module and loads the template into it.
func (e *Engine) acquireNew(ctx context.Context) (*Instance, error) {
	in, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.tmpl.load(in); err != nil {
		in.mod.Close(ctx)
		return nil, fmt.Errorf("load template: %w", err)
	}
	return in, nil
}

// meta are the template's pointers, in the order they are hashed and stored.
func (t *template) meta() []*uint32 {
	return []*uint32{&t.SP, &t.settle, &t.encode, &t.describe, &t.reseed, &t.undef,
		&t.trueBox, &t.falseBox, &t.scratch, &t.stage, &t.messageKey}
}

func (t *template) metaValues() []uint32 {
	var v []uint32
	for _, p := range t.meta() {
		v = append(v, *p)
	}
	return v
}

// marshal encodes the template as: the pointers (u32 each), the version's
// length (u8) and bytes, the hash, the memory.
func (t *template) marshal() []byte {
	b := make([]byte, 0, 4*len(t.meta())+1+len(t.version)+32+len(t.Mem))
	for _, v := range t.metaValues() {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = append(b, byte(len(t.version)))
	b = append(b, t.version...)
	b = append(b, t.Hash[:]...)
	return append(b, t.Mem...)
}

// readTemplate reads and checks a cache entry. The entry's checksum covers
// the hash too, which is not recomputed: it was computed from this memory by
// the build that wrote the entry.
func readTemplate(file string) (*template, error) {
	b, err := ReadCache(file, maxTemplateFile)
	if err != nil {
		return nil, err
	}
	t := &template{}
	fields := t.meta()
	if len(b) < 4*len(fields)+1 {
		return nil, errors.New("template entry too short")
	}
	for i, p := range fields {
		*p = binary.LittleEndian.Uint32(b[4*i:])
	}
	b = b[4*len(fields):]
	n := int(b[0])
	if len(b) < 1+n+32 {
		return nil, errors.New("template entry too short")
	}
	t.version = string(b[1 : 1+n])
	copy(t.Hash[:], b[1+n:])
	t.Mem = b[1+n+32:]
	if len(t.Mem) == 0 || len(t.Mem)%image.WasmPage != 0 || uint64(t.SP) > uint64(len(t.Mem)) {
		return nil, fmt.Errorf("template entry has %d bytes of memory and stack pointer %d", len(t.Mem), t.SP)
	}
	return t, nil
}
