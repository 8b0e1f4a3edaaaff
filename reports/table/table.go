// Package table holds every table format emobench prints: aligned text,
// CSV, JSON, Markdown and LaTeX (booktabs), and the tables the stats
// commands build from analysis results. A Table's cells are plain values;
// the writers decide how each format shows them.
package table

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/emobench/emobench/internal/csvsafe"
)

// Table is a result set that can be written in any of Formats.
type Table struct {
	Columns []string
	// Rows hold, per row, one value per column: string, int, int64,
	// float64 (NaN: missing, empty in text and null in json), nil, bool,
	// []byte, Raw, Estimate (see ExpandEstimates), json.RawMessage (json
	// only) or a fmt.Stringer that json marshals itself (IDs).
	Rows [][]any
}

// Formats lists the output formats Write understands.
var Formats = []string{"table", "json", "csv", "markdown", "latex"}

// Split reports whether format gives each value a column of its own
// (csv, json): missing values are null there and notes go to a note
// column, where the text formats print words in the cell.
func Split(format string) bool { return format == "csv" || format == "json" }

// Write writes t to w in format, one of Formats ("" is "table"). An
// unknown format is an error; so is a failed write.
func (t *Table) Write(w io.Writer, format string) error {
	// tabwriter and the other writers write cell by cell: one system call
	// each on an unbuffered stdout (16,000 for a pass^k table of 240 runs).
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch format {
	case "table", "":
		err = t.writeText(bw)
	case "json":
		err = t.writeJSON(bw)
	case "csv":
		err = t.writeCSV(bw)
	case "markdown":
		err = t.writeMarkdown(bw)
	case "latex":
		err = t.writeLaTeX(bw)
	default:
		return fmt.Errorf("unknown format %q", format)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// Raw is text that the LaTeX writer must not escape (it holds math).
type Raw string

// cell renders a value for the text formats.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(noNegativeZero(x), 'f', 4, 64)
	case []byte:
		return string(x)
	case string:
		return x
	case Raw:
		return string(x)
	case json.RawMessage:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func (t *Table) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.Columns, "\t"))
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = OneLine(cell(v))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`)

// OneLine keeps a cell from breaking the table's layout or the terminal:
// line breaks and tabs are escaped, other control characters (ESC, BEL, …)
// become U+FFFD.
func OneLine(s string) string {
	return Printable(lineBreaks.Replace(s))
}

// Printable keeps text from the data from driving the terminal it is
// printed on: control characters other than line feed and tab (ESC, BEL,
// the C1 range, …) become U+FFFD, and a carriage return is written as
// \r. Line breaks are kept, so multi-line text stays readable.
func Printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	s = strings.ReplaceAll(s, "\r", `\r`)
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// isControl reports whether r is a control character a terminal may act
// on: C0 other than line feed and tab, DEL, and C1.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

func (t *Table) writeCSV(w io.Writer) error {
	cw := csvsafe.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	for _, row := range t.Rows {
		if err := cw.Write(csvCells(row)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvCells(row []any) []string {
	cells := make([]string, len(row))
	for i, v := range row {
		cells[i] = cell(v)
		if f, ok := v.(float64); ok && !math.IsNaN(f) {
			cells[i] = strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return cells
}

// writeJSON writes an array of objects keyed by column, in column order.
func (t *Table) writeJSON(w io.Writer) error {
	s := &RowStream{w: w, cols: t.Columns, format: "json"}
	for _, row := range t.Rows {
		if err := s.Row(row); err != nil {
			return err
		}
	}
	return s.End()
}

// jsonObject renders one row as a JSON object with keys in column order.
func jsonObject(cols []string, row []any) (string, error) {
	var b strings.Builder
	b.WriteString("{")
	for j, v := range row {
		if j > 0 {
			b.WriteString(", ")
		}
		key, _ := json.Marshal(cols[j])
		b.Write(key)
		b.WriteString(": ")
		val, err := json.Marshal(jsonValue(v))
		if err != nil {
			return "", err
		}
		b.Write(val)
	}
	b.WriteString("}")
	return b.String(), nil
}

func jsonValue(v any) any {
	switch x := v.(type) {
	case Raw:
		return string(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case []byte:
		return string(x)
	}
	return v
}

// JSONText returns v as a json.RawMessage when it is a string (an SQLite
// TEXT value) holding a JSON object or array, so the json writer emits it
// as that value instead of a string; any other v (numbers, NULL, BLOBs,
// other text) is returned as is. Give the result to the json format only:
// the text formats print a json.RawMessage as its text.
func JSONText(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	trimmed := strings.TrimSpace(s)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') || !json.Valid([]byte(trimmed)) {
		return v
	}
	return json.RawMessage(trimmed)
}

func (t *Table) writeMarkdown(w io.Writer) error {
	esc := strings.NewReplacer("|", `\|`)
	head := make([]string, len(t.Columns))
	rule := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i], rule[i] = esc.Replace(OneLine(c)), "---"
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = esc.Replace(OneLine(cell(v)))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	return nil
}

var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`,
	"_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`, "\n", " ",
)

// writeLaTeX writes a booktabs tabular.
func (t *Table) writeLaTeX(w io.Writer) error {
	fmt.Fprintf(w, "%% needs \\usepackage{booktabs}\n\\begin{tabular}{%s}\n\\toprule\n", t.latexAlignment())
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = latexEscaper.Replace(c)
	}
	fmt.Fprintf(w, "%s \\\\\n\\midrule\n", strings.Join(head, " & "))
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if raw, ok := v.(Raw); ok {
				cells[i] = string(raw)
				continue
			}
			cells[i] = latexEscaper.Replace(OneLine(cell(v)))
		}
		fmt.Fprintf(w, "%s \\\\\n", strings.Join(cells, " & "))
	}
	fmt.Fprintln(w, "\\bottomrule\n\\end{tabular}")
	return nil
}

// latexAlignment right-aligns columns that hold only numbers.
func (t *Table) latexAlignment() string {
	var b strings.Builder
	for j := range t.Columns {
		numeric := len(t.Rows) > 0
		for _, row := range t.Rows {
			switch row[j].(type) {
			case int, int64, float64, Raw, nil:
			default:
				numeric = false
			}
		}
		if numeric {
			b.WriteByte('r')
		} else {
			b.WriteByte('l')
		}
	}
	return b.String()
}

// RowStream writes csv or json one row at a time, in the same shape as
// Table.Write, so memory stays flat however many rows there are.
type RowStream struct {
	w      io.Writer
	csv    *csvsafe.Writer
	cols   []string
	rows   int
	format string
}

// NewRowStream starts a stream of rows with columns cols in format, "csv"
// (the header is written now) or "json".
func NewRowStream(w io.Writer, format string, cols []string) *RowStream {
	s := &RowStream{w: w, cols: cols, format: format}
	if format == "csv" {
		s.csv = csvsafe.NewWriter(w)
		s.csv.Write(cols)
	}
	return s
}

// Row writes one row, one value per column (the values of Table.Rows).
func (s *RowStream) Row(vals []any) error {
	if s.format == "csv" {
		return s.csv.Write(csvCells(vals))
	}
	prefix := ",\n  "
	if s.rows == 0 {
		prefix = "[\n  "
	}
	s.rows++
	obj, err := jsonObject(s.cols, vals)
	if err != nil {
		return err
	}
	_, err = io.WriteString(s.w, prefix+obj)
	return err
}

// End finishes the stream: it flushes csv and closes the json array.
func (s *RowStream) End() error {
	if s.format == "csv" {
		s.csv.Flush()
		return s.csv.Error()
	}
	end := "\n]\n"
	if s.rows == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(s.w, end)
	return err
}
