//go:build !linux

package cowmem

import "iter"

// Image is unavailable on this OS: [NewImage] always fails.
type Image struct{ size int }

func NewImage([]byte, iter.Seq[int]) (*Image, error) { return nil, ErrUnsupported }
func (im *Image) Size() int                          { return im.size }
func (im *Image) Close()                             {}
func (im *Image) Map([]byte) error                   { return ErrUnsupported }
func Discard([]byte) error                           { return ErrUnsupported }
func Reserve(uint64) (*Reservation, error)           { return nil, ErrUnsupported }
func (r *Reservation) Reallocate(uint64) []byte      { return nil }
func (r *Reservation) Free()                         {}

func Written(_ []byte, _ int, pages []int32, _ *[]byte) ([]int32, error) {
	return pages, ErrUnsupported
}
