// Package csvsafe writes CSV that a spreadsheet opens as data: a cell that
// begins with =, +, -, @, a tab or a carriage return would be read as a
// formula (CSV injection), so it is written with a leading single quote,
// as OWASP advises; a cell that is a plain number, such as -0.5 or +1,
// stays as it is, so numeric columns stay numeric.
package csvsafe

import (
	"encoding/csv"
	"io"
	"regexp"
	"strings"
)

// Writer is a csv.Writer whose Write escapes formula-leading cells (Cell).
type Writer struct{ *csv.Writer }

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{csv.NewWriter(w)} }

// Write writes one record, each cell escaped by Cell; record is not
// changed.
func (w *Writer) Write(record []string) error {
	var out []string
	for i, c := range record {
		if e := Cell(c); e != c {
			if out == nil {
				out = append([]string(nil), record...)
			}
			out[i] = e
		}
	}
	if out == nil {
		out = record
	}
	return w.Writer.Write(out)
}

// number is a plain decimal number, which no spreadsheet reads as a formula.
var number = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// Cell is s, or s after a single quote when s begins with =, +, -, @, a
// tab or a carriage return and is not a plain number, nor a lone - or +
// (a table's "none", which no spreadsheet evaluates).
func Cell(s string) string {
	if s == "" || s == "-" || s == "+" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || number.MatchString(s) {
		return s
	}
	return "'" + s
}
