package csvsafe_test

import (
	"bytes"
	"testing"

	"github.com/emobench/emobench/internal/csvsafe"
)

// Formula-leading cells get a quote; numbers and other text do not (#20
// item 22b).
func TestCell(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")",
		"+cmd|' /C calc'!A0":       "'+cmd|' /C calc'!A0",
		"-2+3":                     "'-2+3",
		"@SUM(A1)":                 "'@SUM(A1)",
		"\t=1":                     "'\t=1",
		"\r=1":                     "'\r=1",
		"-0.5":                     "-0.5",
		"+1":                       "+1",
		"-1e+308":                  "-1e+308",
		"-.5":                      "-.5",
		"0.25":                     "0.25",
		"plain":                    "plain",
		"":                         "",
		"-":                        "-",
		"--":                       "'--",
		"a=b":                      "a=b",
	} {
		if got := csvsafe.Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriter_Write(t *testing.T) {
	var buf bytes.Buffer
	w := csvsafe.NewWriter(&buf)
	rec := []string{"=1+1", "-1", "x"}
	w.Write(rec)
	w.Flush()
	if got, want := buf.String(), "'=1+1,-1,x\n"; got != want {
		t.Errorf("csv %q, want %q", got, want)
	}
	if rec[0] != "=1+1" {
		t.Errorf("Write changed its record: %q", rec)
	}
}
