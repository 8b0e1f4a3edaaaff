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

// Error is an application error with a machine-readable Code and a message
// meant for the user.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

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
