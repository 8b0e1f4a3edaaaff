package cliargs

import (
	"slices"

	"github.com/urfave/cli/v2"
)

// Without is flags less those named (by their first name) in names, in
// order: the flags one command borrows from another.
func Without(flags []cli.Flag, names ...string) []cli.Flag {
	return slices.DeleteFunc(slices.Clone(flags), func(f cli.Flag) bool { return slices.Contains(names, f.Names()[0]) })
}

// RequireValue refuses an empty value of the program's flag name (given
// as --name ” or by its environment variable) as an EREQUEST error with
// message msg, unless the command about to run (c's first argument) is
// none, help, or one of except. It fits an App's Before.
func RequireValue(c *cli.Context, name, msg string, except ...string) error {
	if cmd := c.Args().First(); c.String(name) != "" || cmd == "" || cmd == "help" || slices.Contains(except, cmd) {
		return nil
	}
	return Usagef("%s", msg)
}
