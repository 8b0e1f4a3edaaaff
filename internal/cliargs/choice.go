package cliargs

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Choice is a string flag --name whose value must be one of allowed: any
// other value is an EREQUEST error (`--format "x" is not one of a, b`),
// returned after the command's Before and before its Action run. def is
// the default, not checked; usage "" lists allowed as OrList does.
func Choice(name, def, usage string, allowed ...string) *cli.StringFlag {
	if usage == "" {
		usage = OrList(allowed)
	}
	return &cli.StringFlag{Name: name, Value: def, Usage: usage, Action: func(_ *cli.Context, v string) error {
		if !slices.Contains(allowed, v) {
			return Usagef("--%s %q is not one of %s", name, v, strings.Join(allowed, ", "))
		}
		return nil
	}}
}

// OrList is words as help text lists alternatives: "a", "a or b",
// "a, b or c"; "" for none.
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
