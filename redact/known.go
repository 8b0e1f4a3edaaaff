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
// arguments). raw is re-encoded only when an escaped occurrence was found;
// otherwise it comes back as written (the same slice when secret is absent
// from its bytes). An empty secret changes nothing.
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
		return raw
	}
	v, changed := replaceKnown(v, secret)
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

// replaceKnown replaces secret in every string and object key of v, and
// reports whether it found one.
func replaceKnown(v any, secret string) (any, bool) {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			child, c := replaceKnown(child, secret)
			changed = changed || c
			if nk := strings.ReplaceAll(k, secret, Placeholder); nk != k {
				delete(x, k)
				k, changed = nk, true
			}
			x[k] = child
		}
	case []any:
		for i, child := range x {
			var c bool
			x[i], c = replaceKnown(child, secret)
			changed = changed || c
		}
	case string:
		s := strings.ReplaceAll(x, secret, Placeholder)
		changed = s != x
		// JSON text in a string (arguments) may escape the secret again.
		if t := strings.TrimSpace(s); strings.Contains(s, `\`) && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
			if inner, ok := decodeJSON([]byte(s)); ok {
				if inner, c := replaceKnown(inner, secret); c {
					if out, ok := encodeJSON(inner); ok {
						s, changed = string(out), true
					}
				}
			}
		}
		return s, changed
	}
	return v, changed
}
