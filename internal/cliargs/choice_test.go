package cliargs

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/urfave/cli/v2"
)

func TestOrList(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"table", "json", "csv"}, "table, json or csv"},
	} {
		if got := OrList(c.words); got != c.want {
			t.Errorf("OrList(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}

// A Choice flag lists its values in its usage, takes its default and an
// allowed value, and refuses another as a usage error naming it.
func TestChoice(t *testing.T) {
	f := Choice("format", "table", "", "table", "json")
	if f.Usage != "table or json" {
		t.Errorf("usage %q, want the allowed values listed", f.Usage)
	}
	if got := Choice("format", "text", "text, or json (a layout)", "text", "json").Usage; got != "text, or json (a layout)" {
		t.Errorf("a given usage is kept, got %q", got)
	}
	for _, c := range []struct {
		args    []string
		want    string // the value the action saw; "" when refused
		refused string
	}{
		{[]string{"x", "cmd"}, "table", ""},
		{[]string{"x", "cmd", "--format", "json"}, "json", ""},
		{[]string{"x", "cmd", "--format", "xml"}, "", `--format "xml" is not one of table, json`},
	} {
		var got string
		app := &cli.App{Name: "x", Writer: io.Discard, ErrWriter: io.Discard, Commands: []*cli.Command{{
			Name: "cmd", Flags: []cli.Flag{Choice("format", "table", "", "table", "json")},
			Action: func(c *cli.Context) error { got = c.String("format"); return nil },
		}}}
		err := app.Run(c.args)
		switch {
		case c.refused == "" && (err != nil || got != c.want):
			t.Errorf("%q: value %q, err %v; want %q", c.args, got, err, c.want)
		case c.refused != "" && (!errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), c.refused) || got != ""):
			t.Errorf("%q: err %v (action saw %q); want a usage error %q", c.args, err, got, c.refused)
		}
	}
}
