package ingest

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// dupKeyScanner finds a key repeated in one object of a JSON value that a
// json.Decoder has already checked. encoding/json keeps the last value of a
// repeated key without a word; the scanner lets a reader say so. It reads
// bytes only (no decoding), so it costs little beside the decoder.
type dupKeyScanner struct {
	stack []dupFrame
}

// dupFrame is one open object or array.
type dupFrame struct {
	object    bool
	expectKey bool     // object: the next string is a key
	keys      [][]byte // object: keys seen so far, as written
	key       []byte   // object: the current key
	index     int      // array: the current element
}

// firstDuplicate returns the dotted path ("info.task.instruction",
// "traj[3].content") of the first key of b that repeats an earlier key of
// the same object, or "" when there is none. b may hold separators and
// white space around the value. Keys are compared as written (an escaped
// spelling of the same key is not caught).
func (s *dupKeyScanner) firstDuplicate(b []byte) string {
	s.stack = s.stack[:0]
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return ""
			}
			if n := len(s.stack); n > 0 && s.stack[n-1].object && s.stack[n-1].expectKey {
				top := &s.stack[n-1]
				key := b[i+1 : end]
				for _, k := range top.keys {
					if bytes.Equal(k, key) {
						top.key = key
						return s.path()
					}
				}
				top.keys = append(top.keys, key)
				top.key, top.expectKey = key, false
			}
			i = end
		case '{':
			s.push(true)
		case '[':
			s.push(false)
		case '}', ']':
			if n := len(s.stack); n > 0 {
				s.stack = s.stack[:n-1]
			}
		case ',':
			if n := len(s.stack); n > 0 {
				if top := &s.stack[n-1]; top.object {
					top.expectKey = true
				} else {
					top.index++
				}
			}
		}
	}
	return ""
}

func (s *dupKeyScanner) push(object bool) {
	if len(s.stack) < cap(s.stack) {
		s.stack = s.stack[:len(s.stack)+1]
		f := &s.stack[len(s.stack)-1]
		*f = dupFrame{object: object, expectKey: object, keys: f.keys[:0]}
		return
	}
	s.stack = append(s.stack, dupFrame{object: object, expectKey: object})
}

// path names the current key of the innermost object, from the outermost
// value down.
func (s *dupKeyScanner) path() string {
	var b strings.Builder
	for _, f := range s.stack {
		if !f.object {
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if key, err := unquote(append(append([]byte{'"'}, f.key...), '"')); err == nil {
			b.WriteString(key)
		} else {
			b.Write(f.key)
		}
	}
	return b.String()
}

// stringEnd returns the index of the quote that closes the JSON string
// whose text starts at b[start], or -1.
func stringEnd(b []byte, start int) int {
	for i := start; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		slashes := 0
		for k := q - 1; k >= start && b[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 0 {
			return q
		}
		i = q + 1
	}
	return -1
}

// byteRecorder keeps the bytes a json.Decoder reads through it, so that the
// bytes of the value just decoded can be scanned again (for repeated keys)
// without decoding them twice. It holds what was read since the last
// forget: one record and the decoder's read-ahead.
type byteRecorder struct {
	r    io.Reader
	buf  []byte
	base int64 // stream offset of buf[0]
}

func (b *byteRecorder) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.buf = append(b.buf, p[:n]...)
	return n, err
}

// span returns the bytes between the stream offsets start and end, both
// at or after the last forget.
func (b *byteRecorder) span(start, end int64) []byte {
	return b.buf[start-b.base : end-b.base]
}

// forget drops the bytes before the stream offset off.
func (b *byteRecorder) forget(off int64) {
	n := off - b.base
	if n <= 0 {
		return
	}
	b.buf = b.buf[:copy(b.buf, b.buf[n:])]
	b.base = off
}
