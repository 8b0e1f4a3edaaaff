package cliargs

import "github.com/emobench/emobench"

// Exit statuses of a program whose errors are *emobench.Error values, as
// ExitCode chooses them. Scripts rely on these: ExitUsage means the
// command line was wrong and nothing was done.
const (
	ExitOK      = 0 // no error
	ExitFailure = 1 // the data (a file, a record, a stored row), a named run or record, a clash with stored data; I/O; an interruption
	ExitUsage   = 2 // the command line: a flag's value, arguments, an unknown command (an EREQUEST error)
)

// ExitCode is err's exit status: ExitOK for nil, ExitUsage when the first
// *emobench.Error in its chain has code EREQUEST (emobench.ErrorCode),
// else ExitFailure, an error with another code or none included.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case emobench.ErrorCode(err) == emobench.EREQUEST:
		return ExitUsage
	}
	return ExitFailure
}
