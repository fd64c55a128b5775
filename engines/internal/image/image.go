// Package image is the memory-image format shared by every engine that runs
// the pinned quickjs.wasm, whatever the wasm runtime: the template hash, the
// reset of an instance to its template, and the "CMSN" snapshot codec.
//
// A snapshot taken by one runtime restores on any other that built the same
// template, because the template is built deterministically from the same
// module and both sides encode and decode through this package.
package image

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"iter"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/seed11a79d2d/codemode/abi"
)

// PageSize is the granularity of resets and snapshots.
const PageSize = 4096

// WasmPage is the size of one wasm memory page.
const WasmPage = 65536

// Snapshot format, version 1 (all integers little-endian):
//
//	"CMSN" | version u8 | template hash [32]byte | memory size u32 |
//	result box u32 | payload size u32 | zstd(payload) | crc32c u32
//
// The payload is a run of (page index u32, page XOR template page) records,
// one per 4 KiB page above the C stack that differs from the template (pages
// past the template's end are XORed against zeros), in increasing page order.
// The checksum covers everything before it.
const (
	Magic      = "CMSN"
	Version    = 1
	HeaderSize = 4 + 1 + 32 + 4 + 4 + 4
	recordSize = 4 + PageSize
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the CRC32C an image ends with, over everything before it.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Template is the VM image every instance is reset to and every snapshot is
// relative to.
type Template struct {
	// Mem is linear memory right after the template was built; its length is
	// a multiple of [WasmPage].
	Mem []byte
	// SP is the stack pointer between calls, also the top of the C stack:
	// memory below it is dead between calls, and images skip it.
	SP uint32
	// Hash identifies the template; see [Hash].
	Hash [32]byte

	zeroOnce sync.Once
	zero     []bool // zero[i]: page i of Mem is all zeros
}

// base is the template's page at p, or the shared zero page where the
// template's is zero: comparing with a page that stays in cache reads half
// as much memory, and templates have many zero pages (malloc's headroom).
func (t *Template) base(p int) []byte {
	t.zeroOnce.Do(func() {
		t.zero = make([]bool, len(t.Mem)/PageSize)
		for i := range t.zero {
			t.zero[i] = AllZero(t.Mem[i*PageSize : (i+1)*PageSize])
		}
	})
	if i := p / PageSize; i >= len(t.zero) || t.zero[i] {
		return zeroPage[:]
	}
	return t.Mem[p : p+PageSize]
}

// NonZero records that pages, in any order, are the only pages of Mem that
// may hold anything but zeros, so that the first reset or snapshot need not
// read the whole template to find out (which faults in every zero page of a
// template loaded from its cache entry). Call it before the template is used.
func (t *Template) NonZero(pages iter.Seq[int]) {
	t.zeroOnce.Do(func() {
		t.zero = make([]bool, len(t.Mem)/PageSize)
		for i := range t.zero {
			t.zero[i] = true
		}
		for p := range pages {
			if p >= 0 && p < len(t.zero) {
				t.zero[p] = false
			}
		}
	})
}

// Hash identifies a template by its memory and the engine's own references
// into it (the stack pointer and the box pointers it keeps), in a fixed order.
func Hash(mem []byte, meta []uint32) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "codemode-template-v1 %v ", meta)
	h.Write(mem)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Errorf is a failure of kind [abi.FailureSnapshot].
func Errorf(format string, args ...any) *abi.Failure {
	return &abi.Failure{Kind: abi.FailureSnapshot, Message: "snapshot: " + fmt.Sprintf(format, args...)}
}

var zeroPage [PageSize]byte

// AllZero reports whether b, at most a page long, is all zeros.
func AllZero(b []byte) bool { return bytes.Equal(b, zeroPage[:len(b)]) }

// Reset returns mem, the memory of an instance that ran, to the template by
// copying back only the pages that differ; the stack below SP is skipped.
// Memory never shrinks, so pages past the template are zeroed. mem must be at
// least as long as the template.
func (t *Template) Reset(mem []byte) { t.ResetPages(mem, t.All(mem)) }

// ResetPages is Reset looking only at pages, the indexes of every page of
// mem that may differ from the template (see [Template.All]).
func (t *Template) ResetPages(mem []byte, pages iter.Seq[int]) {
	for i := range pages {
		p := i * PageSize
		if p < int(t.SP)&^(PageSize-1) || p+PageSize > len(mem) {
			continue
		}
		page := mem[p : p+PageSize]
		if base := t.base(p); !bytes.Equal(page, base) {
			copy(page, base)
		}
	}
}

// All is every page of mem above the C stack, for ResetPages and
// EncodePages when nothing says which pages were written.
func (t *Template) All(mem []byte) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := int(t.SP) / PageSize; i < len(mem)/PageSize; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// Pages is a sorted list of page indexes as a sequence.
func Pages(list []int32) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, i := range list {
			if !yield(int(i)) {
				return
			}
		}
	}
}

// Encode makes a snapshot of mem, the whole linear memory of an instance
// derived from t and between calls, whose cell value is the box result.
func (t *Template) Encode(enc *zstd.Encoder, mem []byte, result uint32) []byte {
	return t.EncodePages(enc, mem, result, t.All(mem))
}

// EncodePages is Encode looking only at pages, in increasing order: every
// page of mem that may differ from the template (see [Template.All]).
func (t *Template) EncodePages(enc *zstd.Encoder, mem []byte, result uint32, pages iter.Seq[int]) []byte {
	buf := scratch.Get().(*encodeScratch)
	defer func() {
		if cap(buf.payload) <= maxPooledPayload && cap(buf.frame) <= maxPooledPayload {
			scratch.Put(buf)
		}
	}()
	payload := buf.payload[:0]
	for i := range pages {
		p := i * PageSize
		if p < int(t.SP)&^(PageSize-1) || p+PageSize > len(mem) {
			continue
		}
		cur := mem[p : p+PageSize]
		base := t.base(p)
		if bytes.Equal(cur, base) {
			continue
		}
		payload = binary.LittleEndian.AppendUint32(slices.Grow(payload, recordSize), uint32(p/PageSize))
		n := len(payload)
		payload = payload[:n+PageSize]
		subtle.XORBytes(payload[n:], cur, base) // straight into the record: no copy first
	}
	buf.payload = payload
	head := buf.frame[:HeaderSize]
	copy(head, Magic)
	head[4] = Version
	copy(head[5:], t.Hash[:])
	binary.LittleEndian.PutUint32(head[37:], uint32(len(mem)))
	binary.LittleEndian.PutUint32(head[41:], result)
	binary.LittleEndian.PutUint32(head[45:], uint32(len(payload)))
	// Compressed into the pooled buffer and copied out at its exact size: a
	// guess at the size allocated (and cleared) four times what it needed.
	buf.frame = enc.EncodeAll(payload, head)
	out := make([]byte, len(buf.frame), len(buf.frame)+4)
	copy(out, buf.frame)
	return binary.LittleEndian.AppendUint32(out, Checksum(out))
}

// NewEncoder is the compressor for [Template.EncodePages]. The fastest level:
// a payload is mostly the zeros of XORed pages. No zstd checksum: the
// image's own CRC32C covers the whole image already, and the checksum was
// an eighth of a snapshot's time. The format is unchanged (the frame says
// whether it carries one), so images with and without it decode alike.
func NewEncoder() *zstd.Encoder {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	return enc
}

// encodeScratch recycles EncodePages's buffers: growing the payload page by
// page was most of a small snapshot's cost.
type encodeScratch struct{ payload, frame []byte }

var scratch = sync.Pool{New: func() any { return &encodeScratch{frame: make([]byte, HeaderSize, 64<<10)} }}

// maxPooledPayload keeps huge images' buffers out of the pool.
const maxPooledPayload = 4 << 20

// Image is a decoded, validated snapshot.
type Image struct {
	// Size is the linear memory size the image needs.
	Size uint32
	// Result is the cell value's box.
	Result uint32
	pages  []byte  // validated records
	buf    *[]byte // pages' pooled buffer, until Apply
}

// Decode validates a snapshot against t; maxSize bounds the memory it may
// ask for. It never panics on any input; every error is a *[abi.Failure] of
// kind [abi.FailureSnapshot].
func (t *Template) Decode(dec *zstd.Decoder, image []byte, maxSize uint64) (*Image, error) {
	if len(image) < HeaderSize+4 {
		return nil, Errorf("image is truncated (%d bytes)", len(image))
	}
	if string(image[:4]) != Magic {
		return nil, Errorf("not a codemode snapshot")
	}
	if v := image[4]; v != Version {
		if v > Version {
			return nil, Errorf("format version %d is newer than this engine's %d", v, Version)
		}
		return nil, Errorf("unsupported format version %d", v)
	}
	body, sum := image[:len(image)-4], binary.LittleEndian.Uint32(image[len(image)-4:])
	if Checksum(body) != sum {
		return nil, Errorf("checksum mismatch: the image is corrupted or truncated")
	}
	if !bytes.Equal(image[5:37], t.Hash[:]) {
		return nil, Errorf("taken from a different engine template")
	}
	d := &Image{
		Size:   binary.LittleEndian.Uint32(image[37:]),
		Result: binary.LittleEndian.Uint32(image[41:]),
	}
	raw := binary.LittleEndian.Uint32(image[45:])
	switch {
	case d.Size%WasmPage != 0 || d.Size < uint32(len(t.Mem)) || uint64(d.Size) > maxSize:
		return nil, Errorf("invalid memory size %d", d.Size)
	case d.Result < t.SP || d.Result >= d.Size:
		return nil, Errorf("invalid result reference")
	case raw%recordSize != 0 || uint64(raw) > uint64(d.Size/PageSize)*recordSize:
		return nil, Errorf("invalid payload size %d", raw)
	}
	var buf *[]byte
	if raw <= maxPooledPayload {
		buf = decoded.Get().(*[]byte)
	} else {
		buf = new([]byte)
	}
	pages, err := dec.DecodeAll(body[HeaderSize:], slices.Grow((*buf)[:0], int(raw)))
	*buf = pages
	if err != nil {
		return nil, Errorf("decompress: %v", err)
	}
	if uint32(len(pages)) != raw {
		return nil, Errorf("payload is %d bytes, header says %d", len(pages), raw)
	}
	first, last := int64(t.SP/PageSize), int64(-1)
	for r := 0; r < len(pages); r += recordSize {
		idx := int64(binary.LittleEndian.Uint32(pages[r:]))
		if idx < first || idx <= last || idx >= int64(d.Size/PageSize) {
			return nil, Errorf("invalid page index %d", idx)
		}
		last = idx
	}
	d.pages, d.buf = pages, buf
	return d, nil
}

// Apply writes the image into mem, which must hold the template (zeros past
// its end) and be at least Size bytes long. An image applies once: its
// buffer goes back to a pool for the next Decode.
func (d *Image) Apply(mem []byte) {
	for r := 0; r < len(d.pages); r += recordSize {
		p := int(binary.LittleEndian.Uint32(d.pages[r:])) * PageSize
		subtle.XORBytes(mem[p:p+PageSize], mem[p:p+PageSize], d.pages[r+4:r+recordSize])
	}
	if d.buf != nil && cap(*d.buf) <= maxPooledPayload {
		decoded.Put(d.buf)
	}
	d.pages, d.buf = nil, nil
}

// decoded recycles Decode's payload buffers: a fresh quarter-megabyte
// buffer per restore was a tenth of its time (allocation, clearing, GC).
var decoded = sync.Pool{New: func() any { return new([]byte) }}
