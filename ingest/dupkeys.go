package ingest

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// dupKeyScanner finds the keys repeated in one object of a JSON value that
// a json.Decoder has already checked. encoding/json keeps the last value of
// a repeated key without a word; the scanner lets a reader say so, and
// lastWins then drops the earlier values from the bytes that are kept. It
// reads bytes only (no decoding), so it costs little beside the decoder.
type dupKeyScanner struct {
	stack []dupFrame
}

// dupFrame is one open object or array.
type dupFrame struct {
	object    bool
	expectKey bool     // object: the next string is a key
	keys      [][]byte // object: keys seen so far, unescaped when written with escapes
	key       []byte   // object: the current key, as written
	index     int      // array: the current element
}

// duplicates returns the dotted paths ("info.task.instruction",
// "traj[3].content") of the keys of b that repeat an earlier key of the
// same object, each path once, in the order their repeats appear; nil when
// there is none. b may hold separators and white space around the value.
// Keys are compared by their text, so "a" and "\u0061" are the same key.
func (s *dupKeyScanner) duplicates(b []byte) []string {
	var paths []string
	s.stack = s.stack[:0]
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return paths
			}
			if n := len(s.stack); n > 0 && s.stack[n-1].object && s.stack[n-1].expectKey {
				top := &s.stack[n-1]
				key := b[i+1 : end]
				id := keyText(key)
				dup := false
				for _, k := range top.keys {
					if bytes.Equal(k, id) {
						dup = true
						break
					}
				}
				top.key, top.expectKey = key, false
				if dup {
					if p := s.path(); !slices.Contains(paths, p) {
						paths = append(paths, p)
					}
				} else {
					top.keys = append(top.keys, id)
				}
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
	return paths
}

// keyText returns the text of a key as written between its quotes: key
// itself when it has no escapes.
func keyText(key []byte) []byte {
	if bytes.IndexByte(key, '\\') < 0 {
		return key
	}
	s, ok := unescape(append(append([]byte{'"'}, key...), '"'))
	if !ok {
		return key
	}
	return []byte(s)
}

// duplicateNote words the repeated keys of a record for a note, listing at
// most maxDupPaths of them: "key info.task.user_id appears more than once:
// the last value is kept", or "keys a, b and c appear more than once: the
// last value of each is kept".
func duplicateNote(paths []string) string {
	if len(paths) == 1 {
		return "key " + paths[0] + " appears more than once: the last value is kept"
	}
	list := paths
	if len(list) > maxDupPaths {
		list = list[:maxDupPaths]
	}
	text := strings.Join(list, ", ")
	if more := len(paths) - len(list); more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return "keys " + text + " appear more than once: the last value of each is kept"
}

// maxDupPaths is how many repeated keys one note lists.
const maxDupPaths = 10

// lastWins returns the JSON value of b (a value a json.Decoder has
// checked, maybe with separators and white space around it) with only the
// last value of each repeated key of an object, at the place of its first
// occurrence, as Python's json.loads keeps it. Everything else is kept as
// written. Readers call it only for values whose duplicates are non-empty.
func lastWins(b []byte) []byte {
	b = bytes.TrimLeft(b, " \t\r\n,")
	b = bytes.TrimRight(b, " \t\r\n")
	if len(b) == 0 {
		return b
	}
	out, _ := lastWinsValue(make([]byte, 0, len(b)), b, 0)
	return out
}

// lastWinsValue appends the value at b[i] (no leading white space) to dst
// with repeated keys resolved, and returns dst and the index after it.
func lastWinsValue(dst, b []byte, i int) ([]byte, int) {
	switch b[i] {
	case '{':
		return lastWinsObject(dst, b, i)
	case '[':
		dst = append(dst, '[')
		i++
		for {
			j := skipSpace(b, i)
			dst = append(dst, b[i:j]...)
			if i = j; i >= len(b) {
				return dst, i
			}
			switch b[i] {
			case ']':
				return append(dst, ']'), i + 1
			case ',':
				dst = append(dst, ',')
				i++
				continue
			}
			dst, i = lastWinsValue(dst, b, i)
		}
	case '"':
		end := stringEnd(b, i+1)
		if end < 0 {
			return append(dst, b[i:]...), len(b)
		}
		return append(dst, b[i:end+1]...), end + 1
	}
	j := i
	for j < len(b) && !strings.ContainsRune(" \t\r\n,]}", rune(b[j])) {
		j++
	}
	return append(dst, b[i:j]...), j
}

// lastWinsObject is lastWinsValue for the object at b[i].
func lastWinsObject(dst, b []byte, i int) ([]byte, int) {
	type member struct {
		head  []byte // white space, key and colon, as written
		value []byte // the value, repeated keys resolved
		tail  []byte // the white space after the value
		gone  bool   // an earlier member has the same key
	}
	var members []member
	var empty []byte          // the white space of an object without members
	first := map[string]int{} // key text → index in members of its first occurrence
	i++
	for i < len(b) {
		start := skipSpace(b, i)
		if start >= len(b) || b[start] == '}' {
			if len(members) == 0 {
				empty = b[i:start]
			}
			i = start + 1
			break
		}
		if b[start] == ',' {
			i = start + 1
			continue
		}
		end := stringEnd(b, start+1)
		if end < 0 {
			break
		}
		key := string(keyText(b[start+1 : end]))
		colon := bytes.IndexByte(b[end:], ':')
		if colon < 0 {
			break
		}
		valStart := skipSpace(b, end+colon+1)
		if valStart >= len(b) {
			break
		}
		m := member{head: b[i:valStart]}
		var valEnd int
		m.value, valEnd = lastWinsValue(nil, b, valStart)
		after := skipSpace(b, valEnd)
		m.tail = b[valEnd:after]
		i = after
		if at, ok := first[key]; ok {
			// The last value takes the first one's place.
			members[at].value = m.value
			m.gone = true
		} else {
			first[key] = len(members)
		}
		members = append(members, m)
	}
	dst = append(append(dst, '{'), empty...)
	last := -1 // the last member kept, which ends with the object's last white space
	for j, m := range members {
		if !m.gone {
			last = j
		}
	}
	for j, m := range members {
		if m.gone {
			continue
		}
		dst = append(append(dst, m.head...), m.value...)
		if j == last {
			dst = append(dst, members[len(members)-1].tail...)
			break
		}
		dst = append(append(dst, m.tail...), ',')
	}
	return append(dst, '}'), i
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
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
			if key == "" {
				key = `""` // the empty key, named
			}
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
