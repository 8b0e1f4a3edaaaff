package redact

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxEscapeLayers bounds how many layers of JSON escapes knownEscaped
// decodes in one text ("\u0073", then "\\u0073", …): each layer costs a
// pass over the text, and a chain of "\u005c" can add a layer every six
// bytes.
const maxEscapeLayers = 8

// knownEscaped replaces in s every occurrence of secret that JSON escapes
// spell ("\u0073k-…", "sk-abc\/def", "\\u0073…" two layers down), within
// maxEscapeLayers layers, whatever surrounds it: plain text, a cut-off
// JSON fragment, escapes with no quotes around them. The source text of
// each occurrence, whole escape sequences, becomes Placeholder, so a JSON
// string stays one. It reports whether it found one; text without a
// backslash is returned at once.
func knownEscaped(s, secret string) (string, bool) {
	changed := false
	for range 3 { // a replacement may join text into a new occurrence
		if !strings.Contains(s, `\`) || !escapedHolds(s, secret) {
			break
		}
		s, changed = replaceEscaped(s, secret), true
	}
	return s, changed
}

// escapedHolds reports whether a layer of s's escapes, decoded, holds
// secret: the fast test, without the spans replaceEscaped keeps.
func escapedHolds(s, secret string) bool {
	cur, next := []byte(s), []byte(nil)
	for range maxEscapeLayers {
		var changed bool
		next, _, _, changed = unescapeLayer(next[:0], cur, nil, nil)
		if !changed {
			return false
		}
		if bytes.Contains(next, []byte(secret)) {
			return true
		}
		if bytes.IndexByte(next, '\\') < 0 {
			return false
		}
		cur, next = next, cur
	}
	return false
}

// replaceEscaped replaces the source of every occurrence of secret in the
// layers of s's escapes with Placeholder, merging spans that overlap.
func replaceEscaped(s, secret string) string {
	cur := []byte(s)
	from, to := make([]int32, len(s)), make([]int32, len(s))
	for i := range from {
		from[i], to[i] = int32(i), int32(i+1)
	}
	var spans [][2]int32
	for range maxEscapeLayers {
		next, nf, nt, changed := unescapeLayer(nil, cur, from, to)
		if !changed {
			break
		}
		for off := 0; ; {
			i := bytes.Index(next[off:], []byte(secret))
			if i < 0 {
				break
			}
			a, b := off+i, off+i+len(secret)
			spans = append(spans, [2]int32{nf[a], nt[b-1]})
			off = b
		}
		cur, from, to = next, nf, nt
		if bytes.IndexByte(cur, '\\') < 0 {
			break
		}
	}
	slices.SortFunc(spans, func(x, y [2]int32) int { return int(x[0] - y[0]) })
	var out strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		a, b := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] < b; i++ {
			b = max(b, spans[i][1])
		}
		out.WriteString(s[last:a])
		out.WriteString(Placeholder)
		last = int(b)
	}
	out.WriteString(s[last:])
	return out.String()
}

// unescapeLayer appends to dst s with one layer of JSON escape sequences
// decoded ("\uXXXX" with surrogate pairs, "\"", "\\", "\/", "\b\f\n\r\t";
// a backslash starting none is kept as written), and reports whether it
// decoded one. When from and to are not nil (byte i of s came from
// from[i]:to[i] of the original text) it returns the same for dst.
func unescapeLayer(dst, s []byte, from, to []int32) ([]byte, []int32, []int32, bool) {
	track := from != nil
	var nf, nt []int32
	if track {
		nf, nt = make([]int32, 0, len(s)), make([]int32, 0, len(s))
	}
	changed := false
	for i := 0; i < len(s); {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			j = len(s) - i
		}
		dst = append(dst, s[i:i+j]...)
		if track {
			nf, nt = append(nf, from[i:i+j]...), append(nt, to[i:i+j]...)
		}
		if i += j; i == len(s) {
			break
		}
		n0 := len(dst)
		var n int
		dst, n = escapeAt(dst, s, i)
		if n == 0 {
			dst, n = append(dst, '\\'), 1
		} else {
			changed = true
		}
		if track {
			for range len(dst) - n0 {
				nf, nt = append(nf, from[i]), append(nt, to[i+n-1])
			}
		}
		i += n
	}
	return dst, nf, nt, changed
}

// escapeAt appends the JSON escape sequence at s[i], a backslash, decoded
// to dst, and returns its length in s: 0, appending nothing, when s[i:]
// starts none. A lone surrogate decodes to U+FFFD, as encoding/json does.
func escapeAt(dst, s []byte, i int) ([]byte, int) {
	if i+1 >= len(s) {
		return dst, 0
	}
	switch c := s[i+1]; c {
	case '"', '\\', '/':
		return append(dst, c), 2
	case 'b':
		return append(dst, '\b'), 2
	case 'f':
		return append(dst, '\f'), 2
	case 'n':
		return append(dst, '\n'), 2
	case 'r':
		return append(dst, '\r'), 2
	case 't':
		return append(dst, '\t'), 2
	case 'u':
		r := hex4(s, i+2)
		if r < 0 {
			return dst, 0
		}
		if !utf16.IsSurrogate(r) {
			return utf8.AppendRune(dst, r), 6
		}
		if i+7 < len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			if r2 := hex4(s, i+8); r2 >= 0 {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return utf8.AppendRune(dst, pair), 12
				}
			}
		}
		return utf8.AppendRune(dst, utf8.RuneError), 6
	}
	return dst, 0
}

// hex4 decodes the four hex digits at s[i:], or returns -1.
func hex4(s []byte, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
