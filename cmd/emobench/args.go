package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersedFlags moves a command's flags that follow its arguments in
// front of them, so `emobench runs tag 7 --base 3` parses as users expect
// (urfave/cli/v2 stops reading flags at the first argument). Arguments after
// "--" are left alone.
func interspersedFlags(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	commands, flags := app.Commands, app.Flags
	i := 1
	// Global flags and the command path keep their places.
	for i < len(args) {
		arg := args[i]
		if strings.HasPrefix(arg, "-") && arg != "--" {
			out = append(out, arg)
			if takesValue(flags, arg) && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			i++
			continue
		}
		cmd := findCommand(commands, arg)
		if cmd == nil {
			break
		}
		out = append(out, arg)
		commands, flags = cmd.Subcommands, cmd.Flags
		i++
	}
	var leading, positional []string
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i:]...)
			break
		}
		if strings.HasPrefix(arg, "-") && len(arg) > 1 && isFlag(flags, arg) {
			leading = append(leading, arg)
			if takesValue(flags, arg) && i+1 < len(args) {
				leading = append(leading, args[i+1])
				i++
			}
			continue
		}
		positional = append(positional, arg)
	}
	return append(append(out, leading...), positional...)
}

func findCommand(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c
		}
	}
	return nil
}

func flagName(arg string) (name string, inline bool) {
	name, _, inline = strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name, inline
}

func lookupFlag(flags []cli.Flag, arg string) cli.Flag {
	name, _ := flagName(arg)
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func isFlag(flags []cli.Flag, arg string) bool {
	name, _ := flagName(arg)
	return lookupFlag(flags, arg) != nil || name == "help" || name == "h"
}

// takesValue reports whether arg is a flag that reads the next argument.
func takesValue(flags []cli.Flag, arg string) bool {
	if _, inline := flagName(arg); inline {
		return false
	}
	f := lookupFlag(flags, arg)
	if f == nil {
		return false
	}
	_, isBool := f.(*cli.BoolFlag)
	return !isBool
}
