package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// parseErrorAt finds where dec's Decode failed on a value that is not
// JSON or is cut short (a syntax error or an end of input: the caller
// knows which errors are parse errors): the offset of the value's first
// byte (past the comma and spaces before it) and of the error itself, the
// offending character or the end of the input. ok is false when the
// decoder's buffer does not show such an error.
//
// A json.SyntaxError from a Decoder counts the bytes its scanner has seen
// over every value decoded so far, not from the value's start, so the
// value is scanned again: the decoder's buffer holds it up to the error.
func parseErrorAt(dec *json.Decoder) (start, at int64, ok bool) {
	rest, _ := io.ReadAll(dec.Buffered())
	skip := 0
	for skip < len(rest) && (rest[skip] == ',' || rest[skip] == ' ' || rest[skip] == '\t' || rest[skip] == '\r' || rest[skip] == '\n') {
		skip++
	}
	start = dec.InputOffset() + int64(skip)
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(rest[skip:])).Decode(&raw)
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		return start, start + syn.Offset - 1, true
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return start, dec.InputOffset() + int64(len(rest)), true
	}
	return 0, 0, false
}

// isParseError reports whether err, from a Decoder's Decode, says the
// input is not JSON or is cut short.
func isParseError(err error) bool {
	var syn *json.SyntaxError
	return errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}
