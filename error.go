package emobench

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
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
	// Setting names the request's setting whose value is wrong ("trials",
	// "split"), which Message begins with; "" for none. A front end
	// points at it: the CLI writes it as its flag ("--trials 0: need at
	// least 1"), a form marks the field.
	Setting string
	// Err is the error this one gives a code to (AsRequest, Settingf with
	// %w), which errors.Is and errors.As reach; nil for most.
	Err error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Settingf returns an error of code about the value of the request's
// setting: its message is the setting's name, a space (none before a
// colon) and the formatted text, as in Settingf(EINVALID, "trials", "%d:
// need at least 1", 0): "trials 0: need at least 1". A %w in format makes
// that error Err.
func Settingf(code, setting, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	sep := " "
	if strings.HasPrefix(format, ":") {
		sep = ""
	}
	return &Error{Code: code, Message: setting + sep + err.Error(), Setting: setting, Err: errors.Unwrap(err)}
}

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
	var e *Error
	if !errors.As(err, &e) || e.Code != EINVALID {
		return err
	}
	setting := e.Setting
	if e.Message != err.Error() { // wrapped with context: the message no longer begins with it
		setting = ""
	}
	return &Error{Code: EREQUEST, Message: err.Error(), Setting: setting, Err: err}
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
