package table

import (
	"io"
	"slices"
)

// QueryWriter writes an SQL query's result set in format (one of Formats)
// as it arrives: Header with the column names, Row per row, End once. csv
// and json go row by row (RowStream), so memory stays flat however many
// rows there are; the other formats align columns and hold the rows until
// End. In json, a TEXT cell holding a JSON object or array becomes that
// JSON value (JSONText); numbers and NULL are already numbers and null.
type QueryWriter struct {
	w      io.Writer
	format string
	stream *RowStream
	buffer Table
}

// NewQueryWriter is a QueryWriter writing to w in format.
func NewQueryWriter(w io.Writer, format string) *QueryWriter {
	return &QueryWriter{w: w, format: format}
}

// Header starts the result set with its column names; in csv it writes
// the header line now.
func (q *QueryWriter) Header(cols []string) error {
	if Split(q.format) {
		q.stream = NewRowStream(q.w, q.format, cols)
	}
	q.buffer.Columns = cols
	return nil
}

// Row writes (csv, json) or keeps (other formats) one row of values, one
// per column; vals may be reused by the caller once Row returns.
func (q *QueryWriter) Row(vals []any) error {
	switch q.format {
	case "csv":
		return q.stream.Row(vals)
	case "json":
		cells := make([]any, len(vals))
		for i, v := range vals {
			cells[i] = JSONText(v)
		}
		return q.stream.Row(cells)
	}
	q.buffer.Rows = append(q.buffer.Rows, slices.Clone(vals))
	return nil
}

// End finishes the result set: it closes the csv or json stream, or
// writes the held table. It fails for a failed write or an unknown format.
func (q *QueryWriter) End() error {
	if q.stream != nil {
		return q.stream.End()
	}
	return q.buffer.Write(q.w, q.format)
}
