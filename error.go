package emobench

import (
	"errors"
	"fmt"
	"strconv"
)

// Error codes, in the manner of wtf's application errors.
const (
	EINVALID  = "invalid"   // bad input from the user or a file
	ENOTFOUND = "not_found" // a named run or record does not exist
	ECONFLICT = "conflict"  // the request clashes with stored data
)

// Sentinels for errors.Is, one per code: errors.Is(err, ErrNotFound) holds
// for every *Error of code ENOTFOUND in err's chain, whatever its message.
var (
	ErrInvalid  = &Error{Code: EINVALID, Message: "invalid"}
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
