package emobench

import (
	"errors"
	"fmt"
	"strconv"
)

// Error codes, in the manner of wtf's application errors. They are the one
// error model of every package: a library says what went wrong with a code
// and a message about values ("level NaN is not in (0, 1)"), never a
// command line's flags; a front end adds where the value came from (the CLI
// wraps with the flag's name, fmt.Errorf("--level: %w", err)) and maps the
// code to what it reports (cmd/emobench: an exit status; a web UI: an HTTP
// status).
//
// Bad input has two codes because callers tell the two apart: EREQUEST is
// the request itself (a value or a combination of values the caller gave,
// whatever the data: the CLI's usage error, HTTP 400), EINVALID is the data
// it points at (a file, a record, a stored row; HTTP 422).
const (
	EINVALID  = "invalid"     // bad input in data: a file, a record, a stored row
	EREQUEST  = "bad_request" // a bad value or combination in the request itself
	ENOTFOUND = "not_found"   // a named run or record does not exist
	ECONFLICT = "conflict"    // the request clashes with stored data
)

// Sentinels for errors.Is, one per code: errors.Is(err, ErrNotFound) holds
// for every *Error of code ENOTFOUND in err's chain, whatever its message.
var (
	ErrInvalid  = &Error{Code: EINVALID, Message: "invalid"}
	ErrRequest  = &Error{Code: EREQUEST, Message: "bad request"}
	ErrNotFound = &Error{Code: ENOTFOUND, Message: "not found"}
	ErrConflict = &Error{Code: ECONFLICT, Message: "conflict"}
)

// Error is an application error with a machine-readable Code and a message
// meant for the user.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error of the same non-empty Code, so
// errors.Is(err, &Error{Code: ENOTFOUND}) matches by code, not by message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code != "" && t.Code == e.Code
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsRequest returns err as an EREQUEST error when its code is EINVALID
// (the values a request gave were checked against data and found bad: a
// run that cannot be resumed, a task the domain lacks), keeping its
// message; other errors (and nil) are returned as they are.
func AsRequest(err error) error {
	if ErrorCode(err) != EINVALID {
		return err
	}
	return &Error{Code: EREQUEST, Message: err.Error()}
}

// ErrorCode returns the code of the first *Error in err's chain, or "" when
// there is none.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func quote(s string) string { return strconv.Quote(s) }
