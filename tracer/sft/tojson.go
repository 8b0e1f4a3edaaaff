package sft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// templateJSON re-encodes the JSON value data as the tojson filter of
// chat templates (Hugging Face's, and @huggingface/jinja's) writes it:
// keys in their order (a repeated key in its first place with its last
// value), ", " between items and ": " after keys, strings as
// JavaScript's JSON.stringify escapes them (no HTML or U+2028 escapes),
// numbers as JavaScript prints them.
func templateJSON(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b strings.Builder
	if err := writeTemplateValue(&b, dec); err != nil {
		return "", err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("trailing data after the JSON value")
	}
	return b.String(), nil
}

func writeTemplateValue(b *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			// A key given twice keeps its first place and its last value,
			// as Python's json.loads (vLLM) and JSON.parse build the mapping.
			var keys, vals []string
			at := map[string]int{}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				var v strings.Builder
				if err := writeTemplateValue(&v, dec); err != nil {
					return err
				}
				k := key.(string)
				if i, dup := at[k]; dup {
					vals[i] = v.String()
					continue
				}
				at[k] = len(keys)
				keys, vals = append(keys, k), append(vals, v.String())
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				writeTemplateString(b, k)
				b.WriteString(": " + vals[i])
			}
			b.WriteByte('}')
		case '[':
			b.WriteByte('[')
			for n := 0; dec.More(); n++ {
				if n > 0 {
					b.WriteString(", ")
				}
				if err := writeTemplateValue(b, dec); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			b.WriteByte(']')
		default:
			return fmt.Errorf("unexpected %v", t)
		}
	case string:
		writeTemplateString(b, t)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return err
		}
		b.WriteString(jsNumber(f))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
	return nil
}

// jsNumber formats f as JavaScript's Number.prototype.toString does for
// finite values: integers below 1e21 in full, others in the shortest form
// that round-trips, with an exponent outside [1e-7, 1e21).
func jsNumber(f float64) string {
	if f == 0 {
		return "0" // -0 too
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	if a := math.Abs(f); a >= 1e-7 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1.5e-08
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + digits
}

// writeTemplateString writes s as JSON.stringify does: ", \ and control
// characters escaped (\b \f \n \r \t, others as \u00xx), lone surrogates
// (invalid UTF-8 here) as U+FFFD, everything else as it is.
func writeTemplateString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
