package redact

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Known returns raw with every occurrence of secret, a value the caller
// knows (an API key), replaced by Placeholder: in raw's bytes, and, when
// raw is JSON, in every string and object key however escaped ("\/",
// "\u0073k-…"), also inside JSON text kept in a string (a tool call's
// arguments, even a JSON string literal), layer within layer, and in
// text that is no JSON value, where escapes spell it with no quotes
// around them ("token: \u0073k-…", a cut-off fragment), so no
// decoding of the result, however many times repeated, yields the
// secret. raw is re-encoded only when an escaped occurrence was found;
// otherwise it comes back as written (the same slice when secret is
// absent from its bytes). An empty secret changes nothing.
func Known(raw []byte, secret string) []byte {
	if secret == "" {
		return raw
	}
	if bytes.Contains(raw, []byte(secret)) {
		raw = bytes.ReplaceAll(raw, []byte(secret), []byte(Placeholder))
	}
	if !bytes.Contains(raw, []byte(`\`)) {
		return raw // no escape, so no occurrence left
	}
	v, ok := decodeJSON(raw)
	if !ok {
		if out, changed := knownEscaped(string(raw), secret); changed {
			return []byte(out)
		}
		return raw
	}
	v, changed := replaceKnown(v, secret, 0)
	if !changed {
		return raw
	}
	out, ok := encodeJSON(v)
	if !ok {
		return raw
	}
	return out
}

// decodeJSON decodes raw, numbers as written, and reports whether raw is
// one JSON value.
func decodeJSON(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// encodeJSON encodes v compactly, "<" and "&" as written.
func encodeJSON(v any) ([]byte, bool) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), true
}

// maxKnownLayers bounds how many layers of JSON text kept in a string
// replaceKnown decodes. Each layer doubles the backslashes before its
// innermost quote, so a 3 MiB reply holds at most about 22; the bound
// only guards the stack.
const maxKnownLayers = 64

// replaceKnown replaces secret in every string and object key of v, and
// in the JSON text such a string or key holds, layer by layer (a tool
// call's arguments, or a JSON string literal "\"\\u0073k-…\"" in them),
// and reports whether it found one. depth counts the layers decoded so far.
func replaceKnown(v any, secret string, depth int) (any, bool) {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			child, c := replaceKnown(child, secret, depth)
			changed = changed || c
			if nk, c := replaceKnownString(k, secret, depth); c {
				delete(x, k)
				k, changed = nk, true
			}
			x[k] = child
		}
	case []any:
		for i, child := range x {
			var c bool
			x[i], c = replaceKnown(child, secret, depth)
			changed = changed || c
		}
	case string:
		return replaceKnownString(x, secret, depth)
	}
	return v, changed
}

// replaceKnownString replaces secret in s, a decoded JSON string, and, when
// s is itself JSON text that escapes something (so may spell the secret
// with escapes), in that text's strings and keys, re-encoding it; then
// wherever escapes in what is left spell it (knownEscaped). Only an
// object, array or string can hold the secret: s is decoded only when it
// starts with one of them.
func replaceKnownString(s, secret string, depth int) (string, bool) {
	out := strings.ReplaceAll(s, secret, Placeholder)
	changed := out != s
	t := strings.TrimSpace(out)
	if depth >= maxKnownLayers || !strings.Contains(t, `\`) {
		return out, changed
	}
	if t[0] == '{' || t[0] == '[' || t[0] == '"' {
		if inner, ok := decodeJSON([]byte(t)); ok {
			if inner, c := replaceKnown(inner, secret, depth+1); c {
				if enc, ok := encodeJSON(inner); ok {
					out, changed = string(enc), true
				}
			}
		}
	}
	if esc, c := knownEscaped(out, secret); c {
		if json.Valid([]byte(out)) && !json.Valid([]byte(esc)) {
			return `"` + Placeholder + `"`, true // the secret spanned the JSON text's structure
		}
		return esc, true
	}
	return out, changed
}
