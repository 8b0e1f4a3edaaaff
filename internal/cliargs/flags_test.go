package cliargs

import (
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/urfave/cli/v2"
)

func TestWithout(t *testing.T) {
	flags := []cli.Flag{&cli.StringFlag{Name: "a"}, &cli.StringFlag{Name: "b", Aliases: []string{"x"}}, &cli.StringFlag{Name: "c"}}
	var names []string
	for _, f := range Without(flags, "b", "z") {
		names = append(names, f.Names()[0])
	}
	if !slices.Equal(names, []string{"a", "c"}) || len(flags) != 3 {
		t.Errorf("Without(a, b, c; b) = %v (input now %d flags), want [a c] and the input kept", names, len(flags))
	}
}

// An empty --db is refused, except for the commands that do not use it.
func TestRequireValue(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		refused bool
	}{
		{[]string{"x", "--db", "", "ingest"}, true},
		{[]string{"x", "--db", "", "demo"}, false},
		{[]string{"x", "--db", ""}, false},
		{[]string{"x", "--db", "a.db", "ingest"}, false},
	} {
		app := &cli.App{Name: "x", Writer: io.Discard, ErrWriter: io.Discard,
			Flags:    []cli.Flag{&cli.StringFlag{Name: "db"}},
			Before:   func(c *cli.Context) error { return RequireValue(c, "db", "--db is empty", "demo") },
			Commands: []*cli.Command{{Name: "ingest", Action: noop}, {Name: "demo", Action: noop}},
			Action:   noop,
		}
		err := app.Run(tc.args)
		if refused := errors.Is(err, emobench.ErrRequest); refused != tc.refused || !refused && err != nil {
			t.Errorf("%q: %v, want refused %v", tc.args, err, tc.refused)
		}
	}
}
