package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
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
		return strconv.FormatFloat(x, 'f', 4, 64)
	case []byte:
		return string(x)
	case string:
		return x
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

// oneLine keeps a cell from breaking the table's layout.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

func (t *table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.columns); err != nil {
		return err
	}
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cell(v)
			if f, ok := v.(float64); ok && !math.IsNaN(f) {
				cells[i] = strconv.FormatFloat(f, 'g', -1, 64)
			}
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeJSON writes an array of objects keyed by column, in column order.
func (t *table) writeJSON(w io.Writer) error {
	var b strings.Builder
	b.WriteString("[")
	for i, row := range t.rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for j, v := range row {
			if j > 0 {
				b.WriteString(", ")
			}
			key, _ := json.Marshal(t.columns[j])
			b.Write(key)
			b.WriteString(": ")
			val, err := json.Marshal(jsonValue(v))
			if err != nil {
				return err
			}
			b.Write(val)
		}
		b.WriteString("}")
	}
	if len(t.rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func jsonValue(v any) any {
	switch x := v.(type) {
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
	esc := strings.NewReplacer("|", `\|`, "\n", " ")
	head := make([]string, len(t.columns))
	rule := make([]string, len(t.columns))
	for i, c := range t.columns {
		head[i], rule[i] = esc.Replace(c), "---"
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = esc.Replace(cell(v))
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
	align := strings.Repeat("l", len(t.columns))
	fmt.Fprintf(w, "\\begin{tabular}{%s}\n\\toprule\n", align)
	head := make([]string, len(t.columns))
	for i, c := range t.columns {
		head[i] = latexEscaper.Replace(c)
	}
	fmt.Fprintf(w, "%s \\\\\n\\midrule\n", strings.Join(head, " & "))
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = latexEscaper.Replace(cell(v))
		}
		fmt.Fprintf(w, "%s \\\\\n", strings.Join(cells, " & "))
	}
	fmt.Fprintln(w, "\\bottomrule\n\\end{tabular}")
	return nil
}
