package cowmem

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func image(t testing.TB, pages int) ([]byte, *Image) {
	mem := make([]byte, pages*PageSize)
	for i := range mem {
		mem[i] = byte(i*7 + i/PageSize)
	}
	im, err := NewImage(mem, nil)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(im.Close)
	return mem, im
}

func reserve(t testing.TB, size int) *Reservation {
	r, err := Reserve(1 << 30)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Free)
	if r.Reallocate(uint64(size)) == nil {
		t.Fatal("reallocate failed")
	}
	return r
}

// TestWrittenPagesAreReported writes scattered pages, through the image and
// past it, and checks that exactly those are reported and that discarding
// them returns memory to the image byte for byte.
func TestWrittenPagesAreReported(t *testing.T) {
	tmpl, im := image(t, 64)
	r := reserve(t, 96*PageSize)
	mem := r.Bytes()
	if err := im.Map(mem); err != nil {
		t.Fatal(err)
	}
	want := append(bytes.Clone(tmpl), make([]byte, 32*PageSize)...)
	if !bytes.Equal(mem, want) {
		t.Fatal("mapped memory is not the image")
	}
	var scratch []byte
	for round := range 3 {
		rng := rand.New(rand.NewPCG(uint64(round), 1))
		var wrote []int32
		for range 20 {
			p := rng.IntN(96)
			mem[p*PageSize+rng.IntN(PageSize)] ^= 0xa5
			wrote = append(wrote, int32(p))
		}
		mem[95*PageSize+PageSize-1] = 1 // the last byte
		wrote = append(wrote, 95)
		slices.Sort(wrote)
		wrote = slices.Compact(wrote)
		got, err := Written(mem, 0, nil, &scratch)
		if err != nil {
			t.Fatal(err)
		}
		// Inside the image the record is exact; past it, a page read
		// maps the shared zero page, which counts as private.
		inImage := func(ps []int32) []int32 {
			return slices.DeleteFunc(slices.Clone(ps), func(p int32) bool { return p >= 64 })
		}
		if !slices.Equal(inImage(got), inImage(wrote)) {
			t.Fatalf("round %d: written %v, reported %v", round, wrote, got)
		}
		for _, p := range wrote {
			if _, ok := slices.BinarySearch(got, p); !ok {
				t.Fatalf("round %d: page %d written, not reported", round, p)
			}
		}
		if got, _ := Written(mem, 48*PageSize, nil, &scratch); len(got) > 0 && got[0] < 48 {
			t.Fatalf("pages below from reported: %v", got)
		}
		for _, p := range got {
			if err := Discard(mem[int(p)*PageSize : int(p+1)*PageSize]); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := Written(mem, 0, nil, &scratch); len(got) != 0 {
			t.Fatalf("round %d: after discard, reported %v", round, got)
		}
		if !bytes.Equal(mem, want) {
			t.Fatalf("round %d: discarded memory is not the image", round)
		}
	}
}

// TestImageIsSealed: nothing can change what instances fall back to.
func TestImageIsSealed(t *testing.T) {
	_, im := image(t, 4)
	if err := pwrite(im, []byte("x")); err == nil {
		t.Fatal("wrote into the sealed image")
	}
}

func TestReservationBounds(t *testing.T) {
	r, err := Reserve(16 * PageSize)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	defer r.Free()
	if r.Reallocate(17*PageSize) != nil {
		t.Fatal("grew past the reservation")
	}
	b := r.Reallocate(2 * PageSize)
	b[2*PageSize-1] = 1
	if b = r.Reallocate(8 * PageSize); b[2*PageSize-1] != 1 || len(b) != 8*PageSize {
		t.Fatal("growth lost memory")
	}
}

// TestScanAgreesWithRead: both ways of reading the record, with more
// written runs than one PAGEMAP_SCAN call returns.
func TestScanAgreesWithRead(t *testing.T) {
	_, im := image(t, 512)
	r := reserve(t, 600*PageSize)
	mem := r.Bytes()
	if err := im.Map(mem); err != nil {
		t.Fatal(err)
	}
	var want []int32
	for p := 1; p < 600; p += 3 {
		mem[p*PageSize] = 1
		want = append(want, int32(p))
	}
	var scratch []byte
	read, err := readWritten(mustPagemap(t), mem, 0, nil, &scratch)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(read, want) {
		t.Fatalf("read %v", read)
	}
	scan, err := scanWritten(mustPagemap(t), mem, 0, nil)
	if err != nil {
		t.Skip("no PAGEMAP_SCAN:", err)
	}
	if !slices.Equal(scan, want) {
		t.Fatalf("scan %v", scan)
	}
}

// TestSparseImage: an image made from its non-zero pages alone maps as the
// whole memory, and a page list out of order or past the memory is refused.
func TestSparseImage(t *testing.T) {
	mem := make([]byte, 40*PageSize)
	var pages []int
	for _, p := range []int{0, 1, 2, 7, 8, 20, 39} {
		for i := range PageSize {
			mem[p*PageSize+i] = byte(p + i)
		}
		pages = append(pages, p)
	}
	im, err := NewImage(mem, slices.Values(pages))
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer im.Close()
	r := reserve(t, len(mem))
	if err := im.Map(r.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Bytes(), mem) {
		t.Fatal("the sparse image does not map as the memory")
	}
	for _, bad := range [][]int{{3, 2}, {5, 5}, {40}, {-1}} {
		if im, err := NewImage(mem, slices.Values(bad)); err == nil {
			im.Close()
			t.Errorf("pages %v accepted", bad)
		}
	}
}
