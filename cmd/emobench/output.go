package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/emobench/emobench/analysis"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// table is a result set every command can print in any output format.
type table struct {
	columns []string
	rows    [][]any // values: string, int, int64, float64 (NaN = missing), nil, bool
}

// formats lists the output formats table understands.
var formats = []string{"table", "json", "csv", "markdown", "latex"}

func checkFormat(format string, allowed ...string) error {
	for _, f := range allowed {
		if f == format {
			return nil
		}
	}
	return usagef("--format %q is not one of %s", format, strings.Join(allowed, ", "))
}

func (t *table) write(w io.Writer, format string) error {
	switch format {
	case "table", "":
		return t.writeText(w)
	case "json":
		return t.writeJSON(w)
	case "csv":
		return t.writeCSV(w)
	case "markdown":
		return t.writeMarkdown(w)
	case "latex":
		return t.writeLaTeX(w)
	}
	return usagef("unknown format %q", format)
}

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
	case rawCell:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func (t *table) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.columns, "\t"))
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = oneLine(cell(v))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`)

// oneLine keeps a cell from breaking the table's layout or the terminal:
// line breaks and tabs are escaped, other control characters (ESC, BEL, …)
// become U+FFFD.
func oneLine(s string) string {
	s = lineBreaks.Replace(s)
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func (t *table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.columns); err != nil {
		return err
	}
	for _, row := range t.rows {
		if err := cw.Write(t.csvCells(row)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (t *table) csvCells(row []any) []string {
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
func (t *table) writeJSON(w io.Writer) error {
	s := &rowStream{w: w, cols: t.columns, format: "json"}
	for _, row := range t.rows {
		if err := s.row(row); err != nil {
			return err
		}
	}
	return s.end()
}

// jsonObject renders one row as a JSON object with keys in column order.
func (t *table) jsonObject(row []any) (string, error) {
	var b strings.Builder
	b.WriteString("{")
	for j, v := range row {
		if j > 0 {
			b.WriteString(", ")
		}
		key, _ := json.Marshal(t.columns[j])
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
	case rawCell:
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

func (t *table) writeMarkdown(w io.Writer) error {
	esc := strings.NewReplacer("|", `\|`)
	head := make([]string, len(t.columns))
	rule := make([]string, len(t.columns))
	for i, c := range t.columns {
		head[i], rule[i] = esc.Replace(oneLine(c)), "---"
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = esc.Replace(oneLine(cell(v)))
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
func (t *table) writeLaTeX(w io.Writer) error {
	fmt.Fprintf(w, "%% needs \\usepackage{booktabs}\n\\begin{tabular}{%s}\n\\toprule\n", t.latexAlignment())
	head := make([]string, len(t.columns))
	for i, c := range t.columns {
		head[i] = latexEscaper.Replace(c)
	}
	fmt.Fprintf(w, "%s \\\\\n\\midrule\n", strings.Join(head, " & "))
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			if raw, ok := v.(rawCell); ok {
				cells[i] = string(raw)
				continue
			}
			cells[i] = latexEscaper.Replace(oneLine(cell(v)))
		}
		fmt.Fprintf(w, "%s \\\\\n", strings.Join(cells, " & "))
	}
	fmt.Fprintln(w, "\\bottomrule\n\\end{tabular}")
	return nil
}

// rowStream writes csv or json one row at a time, in the same shape as
// table.write.
type rowStream struct {
	w      io.Writer
	csv    *csv.Writer
	cols   []string
	rows   int
	format string
}

func newRowStream(w io.Writer, format string, cols []string) *rowStream {
	s := &rowStream{w: w, cols: cols, format: format}
	if format == "csv" {
		s.csv = csv.NewWriter(w)
		s.csv.Write(cols)
	}
	return s
}

func (s *rowStream) row(vals []any) error {
	one := &table{columns: s.cols, rows: [][]any{vals}}
	if s.format == "csv" {
		return s.csv.Write(one.csvCells(vals))
	}
	prefix := ",\n  "
	if s.rows == 0 {
		prefix = "[\n  "
	}
	s.rows++
	obj, err := one.jsonObject(vals)
	if err != nil {
		return err
	}
	_, err = io.WriteString(s.w, prefix+obj)
	return err
}

func (s *rowStream) end() error {
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

// latexAlignment right-aligns columns that hold only numbers.
func (t *table) latexAlignment() string {
	var b strings.Builder
	for j := range t.columns {
		numeric := len(t.rows) > 0
		for _, row := range t.rows {
			switch row[j].(type) {
			case int, int64, float64, rawCell, nil:
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

// notEvaluatedCell is v, or in a text format (split false: not csv or
// json, which give null and a note column) "not evaluated" when
// notEvaluated.
func notEvaluatedCell(split bool, v any, notEvaluated bool) any {
	if notEvaluated && !split {
		return analysis.NotEvaluatedText
	}
	return v
}

// sidesNotEvaluated is the note of a comparison whose side a, b or both
// has nothing evaluated (nil when both are evaluated).
func sidesNotEvaluated(a, b bool, aName, bName string) any {
	switch {
	case a && b:
		return analysis.NotEvaluatedText + ": either side"
	case a:
		return analysis.NotEvaluatedText + ": " + aName
	case b:
		return analysis.NotEvaluatedText + ": " + bName
	}
	return nil
}
