package ingest

import (
	"encoding/json"
	"fmt"
	"io"
)

// DefaultMaxRecord is the most bytes one record may take when a reader's
// MaxRecord is 0: a τ-bench record, a τ²-bench simulation (inline, in a
// bare array or in its own file), one top-level value of a τ²-bench
// Results object (its info, its tasks) or a run directory's results.json.
// Decoding a record and storing it costs ten to forty times its size in
// memory at the peak (the decoder's buffer, the decoded strings and
// messages, the rows being written; one-letter messages cost the most),
// so this default keeps emobench ingest's peak RSS under 150 MB whatever
// the file holds (BenchmarkIngestPeakRSS_MaxRecord: 67–135 MB).
const DefaultMaxRecord = 3 << 20

// RecordTooLargeError is the error of a record that goes on past the
// limit Max: Read bytes of it (at least Max) were read and it had not
// ended. Nothing more of the input is read.
type RecordTooLargeError struct {
	Max  int64 // the limit, in bytes
	Read int64 // bytes of the record read when it was refused
}

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("larger than --max-record (%s): %d bytes read so far and it has not ended; raise --max-record to read it",
		formatSize(e.Max), e.Read)
}

// formatSize writes n bytes as --max-record accepts it back: in GiB, MiB or
// KiB when it is a whole number of them, else in bytes.
func formatSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// recordLimiter is the input of a json.Decoder that never holds more than
// max bytes past the position it has consumed (InputOffset): no value it
// decodes, and no token, can take more than max bytes of memory. Bytes are
// counted as they are read, so an endless string on a pipe stops at the
// limit; a read past it fails with a *RecordTooLargeError.
type recordLimiter struct {
	r    io.Reader
	dec  *json.Decoder
	max  int64
	read int64 // bytes handed to dec
}

// newLimitedDecoder returns a decoder of r whose values may take at most
// max bytes each (DefaultMaxRecord when max is 0).
func newLimitedDecoder(r io.Reader, max int64) *json.Decoder {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	l := &recordLimiter{r: r, max: max}
	l.dec = json.NewDecoder(l)
	return l.dec
}

func (l *recordLimiter) Read(p []byte) (int, error) {
	// During a refill, InputOffset is where the value being read starts.
	left := l.dec.InputOffset() + l.max - l.read
	if left <= 0 {
		return 0, &RecordTooLargeError{Max: l.max, Read: l.read - l.dec.InputOffset()}
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	return n, err
}
