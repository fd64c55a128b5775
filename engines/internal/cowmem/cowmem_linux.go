package cowmem

import (
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Image is the template's memory in a sealed memfd.
type Image struct {
	mu   sync.RWMutex
	fd   int // -1 once closed, so that a late Map cannot map a reused fd
	size int
}

// NewImage copies mem, a whole number of pages, into a sealed memfd. pages
// are the indexes of the pages to copy, in increasing order, nil for all of
// them: the others must be zeros, and stay holes in the file that read as
// zeros. A template is two thirds zeros, so this writes a third of it.
func NewImage(mem []byte, pages iter.Seq[int]) (*Image, error) {
	if len(mem) == 0 || len(mem)%PageSize != 0 || os.Getpagesize() != PageSize {
		return nil, ErrUnsupported
	}
	if _, err := pagemap(); err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("codemode-template", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("cowmem: memfd: %w", err)
	}
	im := &Image{fd: fd, size: len(mem)}
	if err := im.fill(mem, pages); err != nil {
		im.Close()
		return nil, err
	}
	// Sealed, the file can change neither size nor bytes: what instances
	// fall back to is the template, whatever anyone does with the fd.
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS,
		unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		im.Close()
		return nil, fmt.Errorf("cowmem: seal the image: %w", err)
	}
	return im, nil
}

// fill writes the pages of mem into the file, a run of consecutive pages
// per write.
func (im *Image) fill(mem []byte, pages iter.Seq[int]) error {
	if err := unix.Ftruncate(im.fd, int64(len(mem))); err != nil {
		return fmt.Errorf("cowmem: size the image: %w", err)
	}
	if pages == nil {
		return writeAt(im.fd, mem, 0)
	}
	start, end := 0, 0 // the run of pages [start, end) not written yet
	for i := range pages {
		if i < end || i >= len(mem)/PageSize {
			return fmt.Errorf("cowmem: page %d out of order or past the image", i)
		}
		if i > end {
			if err := writeAt(im.fd, mem[start*PageSize:end*PageSize], start*PageSize); err != nil {
				return err
			}
			start = i
		}
		end = i + 1
	}
	return writeAt(im.fd, mem[start*PageSize:end*PageSize], start*PageSize)
}

func writeAt(fd int, b []byte, off int) error {
	for len(b) > 0 {
		n, err := unix.Pwrite(fd, b, int64(off))
		if err != nil {
			return fmt.Errorf("cowmem: write the image: %w", err)
		}
		b, off = b[n:], off+n
	}
	return nil
}

// Size is the image's length in bytes.
func (im *Image) Size() int { return im.size }

// Close releases the file; mappings of it stay valid.
func (im *Image) Close() {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.fd >= 0 {
		unix.Close(im.fd)
		im.fd = -1
	}
}

// Map maps the image copy-on-write over mem[:im.Size()], which must be
// page-aligned, writable memory of this process that nothing else maps (an
// instance's linear memory), and returns the rest of mem to zeros. From then
// on [Written] reports the pages written since.
func (im *Image) Map(mem []byte) error {
	if len(mem) < im.size || uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%PageSize != 0 {
		return fmt.Errorf("cowmem: memory of %d bytes cannot hold the image", len(mem))
	}
	im.mu.RLock()
	defer im.mu.RUnlock()
	if im.fd < 0 {
		return errors.New("cowmem: image closed")
	}
	p, err := unix.MmapPtr(im.fd, 0, unsafe.Pointer(unsafe.SliceData(mem)), uintptr(im.size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
	if err != nil {
		return fmt.Errorf("cowmem: map the image: %w", err)
	}
	if p != unsafe.Pointer(unsafe.SliceData(mem)) {
		return fmt.Errorf("cowmem: image mapped at the wrong address")
	}
	return Discard(mem[im.size:])
}

// Discard drops the pages of mem, which must be whole pages: they read as the
// image again where it is mapped, as zeros elsewhere, and their memory goes
// back to the OS.
func Discard(mem []byte) error {
	if len(mem) == 0 {
		return nil
	}
	return unix.Madvise(mem, unix.MADV_DONTNEED)
}

// Page map entry bits (Documentation/admin-guide/mm/pagemap.rst).
const (
	pmPresent = 1 << 63
	pmSwap    = 1 << 62
	pmFile    = 1 << 61 // file page or shared anonymous
)

var (
	pagemapOnce sync.Once
	pagemapFile *os.File
	pagemapErr  error
)

func pagemap() (*os.File, error) {
	pagemapOnce.Do(func() {
		pagemapFile, pagemapErr = os.Open("/proc/self/pagemap")
		if pagemapErr != nil {
			pagemapErr = fmt.Errorf("%w: %v", ErrUnsupported, pagemapErr)
		}
	})
	return pagemapFile, pagemapErr
}

// Written appends to pages the indexes (from the start of mem) of the pages
// of mem[from:] that hold private data: written since their mapping or last
// [Discard]. Every page whose bytes may differ from the image (zeros past
// it) is listed, in increasing order. from must be a multiple of PageSize.
func Written(mem []byte, from int, pages []int32, scratch *[]byte) ([]int32, error) {
	f, err := pagemap()
	if err != nil {
		return pages, err
	}
	if len(mem) <= from {
		return pages, nil
	}
	if scanWorks.Load() >= 0 {
		out, err := scanWritten(f, mem, from, pages)
		if err == nil {
			scanWorks.Store(1)
			return out, nil
		}
		if scanWorks.Load() == 1 {
			return pages, err
		}
		scanWorks.Store(-1) // kernel before 6.7: read the page map instead
	}
	return readWritten(f, mem, from, pages, scratch)
}

// scanWorks is 1 once PAGEMAP_SCAN worked, -1 once it did not, 0 before.
var scanWorks atomic.Int32

// PAGEMAP_SCAN (Linux 6.7) walks the page table in the kernel and returns
// only the matching ranges.
const (
	pagemapScan    = 0xc0606610 // _IOWR('f', 16, struct pm_scan_arg)
	pageIsFile     = 1 << 2
	pageIsPresent  = 1 << 3
	pageIsSwapped  = 1 << 4
	pageIsPFNZero  = 1 << 5
	scanRegionsCap = 64
)

type pmScanArg struct {
	size, flags, start, end, walkEnd, vec, vecLen, maxPages uint64
	inverted, mask, anyof, ret                              uint64
}

type pageRegion struct{ start, end, categories uint64 }

// scanWritten asks for the pages that are neither the file's nor the zero
// page, and present or swapped: the private copies.
func scanWritten(f *os.File, mem []byte, from int, pages []int32) ([]int32, error) {
	base := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
	var vec [scanRegionsCap]pageRegion
	arg := pmScanArg{start: base + uint64(from), end: base + uint64(len(mem)),
		vec: uint64(uintptr(unsafe.Pointer(&vec[0]))), vecLen: scanRegionsCap,
		inverted: pageIsFile | pageIsPFNZero, mask: pageIsFile | pageIsPFNZero,
		anyof: pageIsPresent | pageIsSwapped}
	arg.size = uint64(unsafe.Sizeof(arg))
	for arg.start < arg.end {
		n, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), pagemapScan, uintptr(unsafe.Pointer(&arg)))
		if errno != 0 {
			return pages, fmt.Errorf("cowmem: PAGEMAP_SCAN: %w", errno)
		}
		for _, r := range vec[:n] {
			for p := r.start; p < r.end; p += PageSize {
				pages = append(pages, int32((p-base)/PageSize))
			}
		}
		if arg.walkEnd <= arg.start {
			return pages, errors.New("cowmem: PAGEMAP_SCAN made no progress")
		}
		arg.start = arg.walkEnd
	}
	return pages, nil
}

// readWritten reads the page map's eight bytes per page.
func readWritten(f *os.File, mem []byte, from int, pages []int32, scratch *[]byte) ([]int32, error) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	first, n := from/PageSize, (len(mem)-from)/PageSize
	if cap(*scratch) < 8*n {
		*scratch = make([]byte, 8*n)
	}
	buf := (*scratch)[:8*n]
	off := int64(base/PageSize+uintptr(first)) * 8
	for got := 0; got < len(buf); {
		k, err := f.ReadAt(buf[got:], off+int64(got))
		got += k
		if err != nil && got < len(buf) {
			return pages, fmt.Errorf("cowmem: read the page map: %w", err)
		}
	}
	for i := range n {
		e := binary.LittleEndian.Uint64(buf[8*i:])
		if e&pmSwap != 0 || e&(pmPresent|pmFile) == pmPresent {
			pages = append(pages, int32(first+i))
		}
	}
	return pages, nil
}

// Reserve reserves max bytes of address space, none of it accessible yet.
func Reserve(max uint64) (*Reservation, error) {
	max = (max + PageSize - 1) &^ (PageSize - 1)
	b, err := unix.Mmap(-1, 0, int(max), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("cowmem: reserve %d bytes: %w", max, err)
	}
	return &Reservation{all: b}, nil
}

// Reallocate makes the first size bytes accessible and returns them, or nil
// past the reservation. Memory never shrinks.
func (r *Reservation) Reallocate(size uint64) []byte {
	if size > uint64(len(r.all)) {
		return nil
	}
	if n := int(size+PageSize-1) &^ (PageSize - 1); n > r.size {
		if err := unix.Mprotect(r.all[r.size:n], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		r.size = n
	}
	return r.all[:size:size]
}

// Free unmaps the reservation.
func (r *Reservation) Free() {
	if r.all != nil {
		unix.Munmap(r.all)
		r.all, r.size = nil, 0
	}
}

// Populate faults in the whole pages inside b, fresh memory about to be
// filled, in one call (MADV_POPULATE_WRITE, Linux 5.14): faulting them one
// at a time as a copy touches them cost four times as much in a VM (12 ms
// against 3 for the 2.8 MB of compiled code a start loads). Where the
// kernel does not have it, the pages fault in as before.
func Populate(b []byte) {
	start := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + PageSize - 1) &^ (PageSize - 1)
	end := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(len(b))) &^ (PageSize - 1)
	if len(b) < populateMin || end <= start || populateFails.Load() {
		return
	}
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_POPULATE_WRITE); errno == unix.EINVAL {
		populateFails.Store(true) // before Linux 5.14
	}
}

// populateMin is the smallest buffer worth the system call.
const populateMin = 64 << 10

var populateFails atomic.Bool
