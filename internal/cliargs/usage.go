package cliargs

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/urfave/cli/v2"
)

// Usagef is a mistake in the command line (an unknown command or flag, a
// flag's bad value, stray arguments): an *emobench.Error of code
// emobench.EREQUEST, which a main maps to its usage exit code (2 by
// convention) and prints with a pointer to --help.
func Usagef(format string, args ...any) error {
	return emobench.Errorf(emobench.EREQUEST, format, args...)
}

// MarkUsageErrors makes app's and every command's flag errors (the ones
// urfave/cli/v2 hands to OnUsageError) EREQUEST errors, refuses NaN and ±Inf
// given to any float flag (FiniteFloats), and makes the app and
// every command with subcommands and an action refuse an unknown
// subcommand, naming the nearest, before that action runs (urfave would
// run the action with the mistyped word as its argument).
func MarkUsageErrors(app *cli.App) {
	app.OnUsageError = asUsageError
	FiniteFloats(app.Flags)
	if action := app.Action; action != nil && len(app.Commands) > 0 {
		app.Action = func(c *cli.Context) error {
			if c.NArg() > 0 {
				return unknownCommand(c.App.Commands, nil, c.Args().First())
			}
			return action(c)
		}
	}
	for _, cmd := range app.Commands {
		MarkCommandUsageErrors(cmd)
	}
}

// MarkCommandUsageErrors does what MarkUsageErrors does for one top-level
// command and its subcommands.
func MarkCommandUsageErrors(cmd *cli.Command) { markUnder(cmd, nil) }

func markUnder(cmd *cli.Command, parents []string) {
	cmd.OnUsageError = asUsageError
	FiniteFloats(cmd.Flags)
	path := append(slices.Clone(parents), cmd.Name)
	if len(cmd.Subcommands) > 0 && cmd.Action != nil {
		action := cmd.Action
		cmd.Action = func(c *cli.Context) error {
			if c.NArg() > 0 {
				return unknownCommand(cmd.Subcommands, path, c.Args().First())
			}
			return action(c)
		}
	}
	for _, sub := range cmd.Subcommands {
		markUnder(sub, path)
	}
}

// FiniteFloats makes every *cli.Float64Flag of flags refuse a value that
// is NaN or infinite, as an EREQUEST error naming the flag ("--level NaN: need
// a finite number"), before the command's action runs: a range check such
// as level <= 0 || level >= 1 is false for NaN. A flag's own Action, if
// any, runs after the check.
func FiniteFloats(flags []cli.Flag) {
	for _, f := range flags {
		ff, ok := f.(*cli.Float64Flag)
		if !ok {
			continue
		}
		action := ff.Action
		ff.Action = func(c *cli.Context, v float64) error {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Usagef("--%s %v: need a finite number", ff.Name, v)
			}
			if action != nil {
				return action(c, v)
			}
			return nil
		}
	}
}

func asUsageError(_ *cli.Context, err error, _ bool) error { return Usagef("%s", err) }

// NoArgs refuses stray arguments of a command that takes none, as an
// EREQUEST error naming the command and the first argument; it fits a
// command's Before.
func NoArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return Usagef("%s takes no arguments, got %q (flags go before arguments; see --help)", c.Command.FullName(), c.Args().First())
	}
	return nil
}

// singleDashFlag matches a flag the flag package wrote with one dash.
var singleDashFlag = regexp.MustCompile(`((?:not defined|flag needs an argument|invalid (?:value|boolean value) "[^"]*" for flag):? )-([a-z])`)

// DoubleDash rewrites the flag names in a flag package message ("flag
// needs an argument: -run") with two dashes, as the flags are spelt in
// help; the rest of msg is unchanged.
func DoubleDash(msg string) string {
	return singleDashFlag.ReplaceAllString(msg, "$1--$2")
}

// Renamed reads a string flag that was renamed, keeping its old name
// (defined, usually Hidden, beside the new one) working: it returns the
// value of whichever was given and whether one was; both given is an
// EREQUEST error.
func Renamed(c *cli.Context, name, oldName string) (value string, set bool, err error) {
	switch {
	case c.IsSet(name) && c.IsSet(oldName):
		return "", false, Usagef("--%s is the old name of --%s: give one of them", oldName, name)
	case c.IsSet(oldName):
		return c.String(oldName), true, nil
	}
	return c.String(name), c.IsSet(name), nil
}

// NameSettings wraps the action of app's every command so that an error
// about a setting's value (an *emobench.Error with Setting, which its
// message begins with: "trials 0: need at least 1") names it as the
// command's flag of that name, as the user typed it: "--trials 0: need
// at least 1". The error is kept (wrapped); one about a setting the
// command has no flag for, or wrapped with context before it, is returned
// as it is.
func NameSettings(app *cli.App) { nameSettings(app.Commands, app.Flags) }

func nameSettings(cmds []*cli.Command, global []cli.Flag) {
	for _, cmd := range cmds {
		nameSettings(cmd.Subcommands, global)
		action, flags := cmd.Action, append(slices.Clone(global), cmd.Flags...)
		if action == nil {
			continue
		}
		cmd.Action = func(c *cli.Context) error {
			err := action(c)
			var bad *emobench.Error
			if !errors.As(err, &bad) || bad.Setting == "" || !strings.HasPrefix(err.Error(), bad.Setting) {
				return err
			}
			for _, f := range flags {
				if slices.Contains(f.Names(), bad.Setting) {
					return fmt.Errorf("--%w", err)
				}
			}
			return err
		}
	}
}
