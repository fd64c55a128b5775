package driver

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"iter"

	"github.com/seed11a79d2d/codemode/engines/internal/cowmem"
	"github.com/seed11a79d2d/codemode/engines/internal/image"
)

// Building the template runs QuickJS's init and evaluates the bridge, the
// environment scripts and the prelude (about 100 KB of JavaScript): half of
// a warm engine start. The build is deterministic, so its result is kept in
// the cache directory and a later start of the same binary, module and
// prelude loads it into a fresh instance the way the pool fills up.

// maxTemplateFile bounds a template entry read back and the memory it
// describes; templates are 2 MiB, a third of it stored.
const maxTemplateFile = 256 << 20

// templateFile is this engine's template cache entry, "" for none.
func (e *Engine) templateFile() string {
	return CacheFile(e.cfg.TemplateCache, "template", ".img", e.cfg.Runtime, e.cfg.ModuleHash, e.cfg.Prelude)
}

// cachedTemplate reads the template's cache entry and puts it in its image,
// or returns nil when there is none or it is unusable (which it logs).
func (e *Engine) cachedTemplate() *template {
	file := e.templateFile()
	if file == "" {
		return nil
	}
	t, pages, err := readTemplate(file)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			e.cfg.Logger.Warn("template cache entry unusable; building the template", "file", file, "err", err)
		}
		return nil
	}
	t.NonZero(image.Pages(pages))
	t.cow = e.newImage(t.Mem, image.Pages(pages))
	return t
}

// startTemplate takes the template read from the cache, or builds it (and
// caches it) when there is none, and returns the first instance, at template
// state.
func (e *Engine) startTemplate(ctx context.Context, cached *template) (*Instance, error) {
	if cached != nil {
		e.tmpl = cached
		return e.acquireNew(ctx)
	}
	in, err := e.buildTemplate(ctx)
	if err != nil {
		return nil, err
	}
	pages := nonZero(e.tmpl.Mem)
	e.tmpl.NonZero(image.Pages(pages))
	// The builder's memory is the template: mapping it changes no byte.
	e.tmpl.cow = e.newImage(e.tmpl.Mem, image.Pages(pages))
	e.tmpl.mapInto(in)
	if file := e.templateFile(); file != "" {
		if werr := WriteCache(file, e.tmpl.marshal(pages)); werr != nil {
			e.cfg.Logger.Warn("template cache entry not written", "file", file, "err", werr)
		}
	}
	return in, nil
}

// close releases the template's image; nil-safe.
func (t *template) close() {
	if t != nil && t.cow != nil {
		t.cow.Close()
	}
}

// nonZero is the indexes of the pages of mem that are not all zeros.
func nonZero(mem []byte) []int32 {
	var pages []int32
	for p := 0; p < len(mem); p += image.PageSize {
		if !image.AllZero(mem[p : p+image.PageSize]) {
			pages = append(pages, int32(p/image.PageSize))
		}
	}
	return pages
}

// newImage puts the template in a file instances map copy-on-write, or
// returns nil where the OS cannot. pages are mem's non-zero pages.
func (e *Engine) newImage(mem []byte, pages iter.Seq[int]) *cowmem.Image {
	im, err := cowmem.NewImage(mem, pages)
	if err != nil {
		if !errors.Is(err, cowmem.ErrUnsupported) {
			e.cfg.Logger.Warn("template image not made; resets compare every page"+e.cfg.on(), "err", err)
		}
		return nil
	}
	return im
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
// length (u8) and bytes, the hash, the memory's size in pages (u32), the
// number of 4 KiB pages that are not all zeros (u32), their indices (u32
// each) and their bytes. Two thirds of a template's pages are zeros
// (malloc's headroom, the C stack), so the entry is a third of its size.
// pages are the non-zero pages (see nonZero).
func (t *template) marshal(pages []int32) []byte {
	b := make([]byte, 0, 4*len(t.meta())+1+len(t.version)+32+8+len(pages)*(4+image.PageSize))
	for _, v := range t.metaValues() {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = append(b, byte(len(t.version)))
	b = append(b, t.version...)
	b = append(b, t.Hash[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(t.Mem)/image.WasmPage))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(pages)))
	for _, p := range pages {
		b = binary.LittleEndian.AppendUint32(b, uint32(p))
	}
	for _, p := range pages {
		b = append(b, t.Mem[int(p)*image.PageSize:][:image.PageSize]...)
	}
	return b
}

// readTemplate reads and checks a cache entry. The entry's checksum covers
// the hash too, which is not recomputed: it was computed from this memory by
// the build that wrote the entry.
func readTemplate(file string) (*template, []int32, error) {
	b, err := ReadCache(file, maxTemplateFile)
	if err != nil {
		return nil, nil, err
	}
	short := errors.New("template entry too short")
	t := &template{}
	fields := t.meta()
	if len(b) < 4*len(fields)+1 {
		return nil, nil, short
	}
	for i, p := range fields {
		*p = binary.LittleEndian.Uint32(b[4*i:])
	}
	b = b[4*len(fields):]
	n := int(b[0])
	if len(b) < 1+n+32+8 {
		return nil, nil, short
	}
	t.version = string(b[1 : 1+n])
	copy(t.Hash[:], b[1+n:])
	b = b[1+n+32:]
	size := uint64(binary.LittleEndian.Uint32(b)) * image.WasmPage
	count := uint64(binary.LittleEndian.Uint32(b[4:]))
	b = b[8:]
	if size == 0 || size > maxTemplateFile || uint64(t.SP) > size || uint64(len(b)) != count*(4+image.PageSize) {
		return nil, nil, fmt.Errorf("template entry of %d bytes for %d pages of %d bytes of memory", len(b), count, size)
	}
	t.Mem = make([]byte, size)
	data := b[4*count:]
	pages := make([]int32, count)
	for i := range count {
		p := uint64(binary.LittleEndian.Uint32(b[4*i:]))
		if p >= size/image.PageSize || i > 0 && p <= uint64(pages[i-1]) {
			return nil, nil, fmt.Errorf("template entry names page %d of %d out of order", p, size/image.PageSize)
		}
		pages[i] = int32(p)
	}
	// Each run of consecutive pages is faulted in at once and copied in
	// one piece; the zero pages between them are never touched.
	for i := 0; i < len(pages); {
		j := i + 1
		for j < len(pages) && pages[j] == pages[j-1]+1 {
			j++
		}
		run := t.Mem[int(pages[i])*image.PageSize : int(pages[j-1]+1)*image.PageSize]
		cowmem.Populate(run)
		copy(run, data[i*image.PageSize:j*image.PageSize])
		i = j
	}
	return t, pages, nil
}
