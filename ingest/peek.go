package ingest

import (
	"bufio"
	"io"
)

// newPeekReader buffers r so its first bytes can be inspected before
// decoding.
func newPeekReader(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	return bufio.NewReaderSize(r, 64<<10)
}
