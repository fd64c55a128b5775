package quickjswasi

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/seed11a79d2d/codemode/abi"
)

// Snapshot format, version 1 (all integers little-endian):
//
//	"CMSN" | version u8 | template hash [32]byte | memory size u32 |
//	result box u32 | payload size u32 | zstd(payload) | crc32c u32
//
// The payload is a run of (page index u32, page XOR template page) records,
// one per 4 KiB page above the C stack that differs from the template (pages
// past the template's end are XORed against zeros). The checksum covers
// everything before it.
const (
	snapshotMagic   = "CMSN"
	snapshotVersion = 1
	headerSize      = 4 + 1 + 32 + 4 + 4 + 4
	recordSize      = 4 + diffPage
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func snapshotError(format string, args ...any) *abi.Failure {
	return &abi.Failure{Kind: abi.FailureSnapshot, Message: "snapshot: " + fmt.Sprintf(format, args...)}
}

// Snapshot implements [abi.Cell]. The cell stays usable.
func (c *cell) Snapshot(context.Context) ([]byte, error) {
	switch {
	case c.failed != nil:
		return nil, snapshotError("cell has failed: %s", c.failed.Error())
	case c.in == nil:
		return nil, snapshotError("cell is closed")
	case c.result == 0:
		return nil, snapshotError("cell has not run")
	}
	in, t := c.in, c.eng.tmpl
	if uint32(in.sp.Get()) != t.sp {
		return nil, snapshotError("cell is inside a call")
	}
	size := in.mem.Size()
	mem, _ := in.mem.Read(0, size)
	var payload []byte
	for p := int(t.sp) &^ (diffPage - 1); p < int(size); p += diffPage {
		cur := mem[p : p+diffPage]
		base := zeroPage[:]
		if p < len(t.mem) {
			base = t.mem[p : p+diffPage]
		}
		if bytes.Equal(cur, base) {
			continue
		}
		payload = binary.LittleEndian.AppendUint32(payload, uint32(p/diffPage))
		n := len(payload)
		payload = append(payload, cur...)
		subtle.XORBytes(payload[n:], cur, base)
	}
	out := make([]byte, headerSize, headerSize+len(payload)/8+64)
	copy(out, snapshotMagic)
	out[4] = snapshotVersion
	copy(out[5:], t.hash[:])
	binary.LittleEndian.PutUint32(out[37:], size)
	binary.LittleEndian.PutUint32(out[41:], c.result)
	binary.LittleEndian.PutUint32(out[45:], uint32(len(payload)))
	out = c.eng.enc.EncodeAll(payload, out)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli)), nil
}

// decoded is a validated snapshot.
type decoded struct {
	size   uint32
	result uint32
	pages  []byte // records, validated
}

// decode validates an image against this engine's template. It never panics
// on any input.
func (e *Engine) decode(image []byte) (*decoded, error) {
	t := e.tmpl
	if len(image) < headerSize+4 {
		return nil, snapshotError("image is truncated (%d bytes)", len(image))
	}
	if string(image[:4]) != snapshotMagic {
		return nil, snapshotError("not a codemode snapshot")
	}
	if v := image[4]; v != snapshotVersion {
		if v > snapshotVersion {
			return nil, snapshotError("format version %d is newer than this engine's %d", v, snapshotVersion)
		}
		return nil, snapshotError("unsupported format version %d", v)
	}
	body, sum := image[:len(image)-4], binary.LittleEndian.Uint32(image[len(image)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, snapshotError("checksum mismatch: the image is corrupted or truncated")
	}
	if !bytes.Equal(image[5:37], t.hash[:]) {
		return nil, snapshotError("taken from a different engine template")
	}
	d := &decoded{
		size:   binary.LittleEndian.Uint32(image[37:]),
		result: binary.LittleEndian.Uint32(image[41:]),
	}
	raw := binary.LittleEndian.Uint32(image[45:])
	maxSize := uint64(e.opts.MaxMemoryBytes) + memoryHeadroom
	switch {
	case d.size%wasmPage != 0 || d.size < uint32(len(t.mem)) || uint64(d.size) > maxSize:
		return nil, snapshotError("invalid memory size %d", d.size)
	case d.result < t.sp || d.result >= d.size:
		return nil, snapshotError("invalid result reference")
	case raw%recordSize != 0 || uint64(raw) > uint64(d.size/diffPage)*recordSize:
		return nil, snapshotError("invalid payload size %d", raw)
	}
	pages, err := e.dec.DecodeAll(body[headerSize:], make([]byte, 0, raw))
	if err != nil {
		return nil, snapshotError("decompress: %v", err)
	}
	if uint32(len(pages)) != raw {
		return nil, snapshotError("payload is %d bytes, header says %d", len(pages), raw)
	}
	first, last := int64(t.sp/diffPage), int64(-1)
	for r := 0; r < len(pages); r += recordSize {
		idx := int64(binary.LittleEndian.Uint32(pages[r:]))
		if idx < first || idx <= last || idx >= int64(d.size/diffPage) {
			return nil, snapshotError("invalid page index %d", idx)
		}
		last = idx
	}
	d.pages = pages
	return d, nil
}

// Restore implements [abi.Engine]: the image is applied to a pooled instance
// at template state, and the cell continues where the snapshot stopped.
func (e *Engine) Restore(ctx context.Context, image []byte, limits abi.Limits, host abi.Host) (abi.Cell, error) {
	d, err := e.decode(image)
	if err != nil {
		return nil, err
	}
	in, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if cur := in.mem.Size(); cur < d.size {
		if _, ok := in.mem.Grow((d.size - cur) / wasmPage); !ok {
			e.release(in)
			return nil, &abi.Failure{Kind: abi.FailureMemoryLimit, Message: "snapshot memory exceeds the engine's limit"}
		}
	}
	mem, ok := in.mem.Read(0, d.size)
	if !ok {
		e.release(in)
		return nil, errors.New("snapshot: guest memory unavailable")
	}
	for r := 0; r < len(d.pages); r += recordSize {
		p := int(binary.LittleEndian.Uint32(d.pages[r:])) * diffPage
		subtle.XORBytes(mem[p:p+diffPage], mem[p:p+diffPage], d.pages[r+4:r+recordSize])
	}
	return e.start(in, limits, host, d.result)
}
