package image

import (
	"bytes"
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/seed11a79d2d/codemode/abi"
)

// synthetic is a two-wasm-page template whose stack ends at 8 KiB.
func synthetic() *Template {
	mem := make([]byte, 2*WasmPage)
	for i := range mem {
		mem[i] = byte(i * 7)
	}
	return &Template{Mem: mem, SP: 2 * PageSize, Hash: Hash(mem, []uint32{2 * PageSize})}
}

func codec(t testing.TB) (*zstd.Encoder, *zstd.Decoder) {
	enc := NewEncoder()
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	t.Cleanup(func() { enc.Close(); dec.Close() })
	return enc, dec
}

func TestRoundTrip(t *testing.T) {
	tmpl := synthetic()
	enc, dec := codec(t)
	// A cell that changed a page, grew memory by one wasm page and wrote
	// into it, and scribbled on its (dead) C stack.
	mem := append(bytes.Clone(tmpl.Mem), make([]byte, WasmPage)...)
	mem[0] ^= 1
	mem[5*PageSize+3] ^= 0xff
	mem[2*WasmPage+100] = 42
	img := tmpl.Encode(enc, mem, 3*PageSize)

	d, err := tmpl.Decode(dec, img, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if d.Size != uint32(len(mem)) || d.Result != 3*PageSize {
		t.Fatalf("size %d result %d", d.Size, d.Result)
	}
	got := append(bytes.Clone(tmpl.Mem), make([]byte, WasmPage)...)
	d.Apply(got)
	got[0] ^= 1 // below SP: not carried, as intended
	if !bytes.Equal(got, mem) {
		t.Fatal("restored memory differs")
	}

	tmpl.Reset(got) // the stack below SP is dead between calls and left alone
	if !bytes.Equal(got[tmpl.SP:len(tmpl.Mem)], tmpl.Mem[tmpl.SP:]) || !bytes.Equal(got[len(tmpl.Mem):], make([]byte, WasmPage)) {
		t.Fatal("reset did not return to the template")
	}
}

func TestDecodeRefuses(t *testing.T) {
	tmpl := synthetic()
	enc, dec := codec(t)
	img := tmpl.Encode(enc, bytes.Clone(tmpl.Mem), 3*PageSize)
	other := synthetic()
	other.Hash[0] ^= 1
	for name, tc := range map[string]struct {
		tmpl *Template
		img  []byte
		max  uint64
	}{
		"truncated":      {tmpl, img[:10], 1 << 20},
		"other template": {other, img, 1 << 20},
		"too large":      {tmpl, img, WasmPage},
		"corrupted":      {tmpl, append(bytes.Clone(img[:len(img)-1]), img[len(img)-1]^1), 1 << 20},
	} {
		_, err := tc.tmpl.Decode(dec, tc.img, tc.max)
		var f *abi.Failure
		if !errors.As(err, &f) || f.Kind != abi.FailureSnapshot {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	tmpl := synthetic()
	enc, dec := codec(f)
	mem := bytes.Clone(tmpl.Mem)
	mem[3*PageSize] ^= 9
	f.Add(tmpl.Encode(enc, mem, 3*PageSize))
	f.Add([]byte("CMSN\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := tmpl.Decode(dec, b, 4*WasmPage)
		if err == nil {
			buf := make([]byte, d.Size)
			copy(buf, tmpl.Mem)
			d.Apply(buf) // must stay in bounds
		}
	})
}

// Images are encoded without zstd's own checksum since issue 29; those taken
// before, with it, must still restore, and the pooled buffers that encoding
// and decoding reuse must never carry one image's pages into another.
func TestImagesOfEitherEncoderAndReusedBuffers(t *testing.T) {
	tmpl := synthetic()
	_, dec := codec(t)
	withCRC, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	defer withCRC.Close()
	for round, enc := range []*zstd.Encoder{withCRC, NewEncoder(), NewEncoder()} {
		mem := bytes.Clone(tmpl.Mem)
		for p := 2 + round; p < len(mem)/PageSize; p += 3 { // a different set of pages each round
			mem[p*PageSize+round] ^= 0x5a
		}
		img := tmpl.Encode(enc, mem, 3*PageSize)
		if round == 1 && !bytes.Equal(img, tmpl.Encode(enc, mem, 3*PageSize)) {
			t.Fatal("encoding the same memory twice gave different images")
		}
		d, err := tmpl.Decode(dec, img, 1<<20)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := bytes.Clone(tmpl.Mem)
		d.Apply(got)
		if !bytes.Equal(got, mem) {
			t.Fatalf("round %d: restored memory differs", round)
		}
	}
}
