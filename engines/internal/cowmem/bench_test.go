package cowmem

import (
	"fmt"
	"testing"
)

// BenchmarkWritten is the page-map read of a template-sized memory whose
// pages were all read (mapped from the image), with 32 written.
func BenchmarkWritten(b *testing.B) {
	for _, pages := range []int{256, 1024} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			_, im := image(b, pages)
			r := reserve(b, pages*PageSize)
			mem := r.Bytes()
			im.Map(mem)
			var sum byte
			for i := 0; i < len(mem); i += PageSize {
				sum += mem[i]
			}
			for i := range 32 {
				mem[i*(pages/32)*PageSize] = sum
			}
			var scratch []byte
			var got []int32
			for b.Loop() {
				got, _ = Written(mem, 0, got[:0], &scratch)
			}
			if len(got) != 32 {
				b.Fatal(len(got))
			}
		})
	}
}

// BenchmarkDiscardCycle writes 32 pages and discards them: the copy-on-write
// fault of each write and the madvise, per cycle.
func BenchmarkDiscardCycle(b *testing.B) {
	_, im := image(b, 512)
	r := reserve(b, 512*PageSize)
	mem := r.Bytes()
	im.Map(mem)
	for b.Loop() {
		for i := range 32 {
			mem[i*16*PageSize] = 1
		}
		for i := range 32 {
			Discard(mem[i*16*PageSize : (i*16+1)*PageSize])
		}
	}
}

func BenchmarkWrittenRead(b *testing.B) {
	scanWorks.Store(-1)
	defer scanWorks.Store(0)
	BenchmarkWritten(b)
}
