package ingest

import (
	"bufio"
	"bytes"
	"io"
)

// nonFiniteReader rewrites the bare tokens NaN, Infinity and -Infinity,
// which Python's json.dump writes for non-finite floats but JSON forbids,
// into null. Text inside strings is left alone.
type nonFiniteReader struct {
	r        *bufio.Reader
	inString bool
	escaped  bool
	pending  []byte // a replacement not yet returned
}

func newNonFiniteReader(r io.Reader) io.Reader {
	return &nonFiniteReader{r: newPeekReader(r)}
}

var nonFiniteTokens = [][]byte{[]byte("NaN"), []byte("Infinity"), []byte("-Infinity")}

func (n *nonFiniteReader) Read(p []byte) (int, error) {
	if len(n.pending) > 0 {
		c := copy(p, n.pending)
		n.pending = n.pending[c:]
		return c, nil
	}
	if n.r.Buffered() == 0 {
		if _, err := n.r.Peek(1); err != nil {
			return 0, err
		}
	}
	buf, _ := n.r.Peek(min(n.r.Buffered(), len(p)))
	i := n.scan(buf)
	if i == 0 {
		if n.replaceToken() {
			return n.Read(p)
		}
		// A '-', 'N' or 'I' that starts no token. (Peek may have moved the
		// buffer, so buf is stale here.)
		b, err := n.r.ReadByte()
		p[0] = b
		return 1, err
	}
	c := copy(p, buf[:i])
	n.r.Discard(c)
	return c, nil
}

// scan returns how many bytes of buf can pass unchanged: all of them, or up
// to a possible non-finite token outside a string.
func (n *nonFiniteReader) scan(buf []byte) int {
	i := 0
	for i < len(buf) {
		if n.inString {
			if n.escaped {
				n.escaped = false
				i++
				continue
			}
			j := bytes.IndexAny(buf[i:], `"\`)
			if j < 0 {
				return len(buf)
			}
			i += j
			n.escaped = buf[i] == '\\'
			n.inString = buf[i] != '"'
			i++
			continue
		}
		j := bytes.IndexAny(buf[i:], `"NI-`)
		if j < 0 {
			return len(buf)
		}
		i += j
		if buf[i] != '"' {
			return i
		}
		n.inString = true
		i++
	}
	return i
}

// replaceToken consumes a non-finite token at the read position, queueing
// "null" in its place, and reports whether there was one.
func (n *nonFiniteReader) replaceToken() bool {
	for _, tok := range nonFiniteTokens {
		if next, err := n.r.Peek(len(tok)); err == nil && bytes.Equal(next, tok) {
			n.r.Discard(len(tok))
			n.pending = []byte("null")
			return true
		}
	}
	return false
}
