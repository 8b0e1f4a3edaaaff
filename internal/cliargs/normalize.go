// Package cliargs is the command-line plumbing urfave/cli/v2 leaves to its
// users: it rewrites what users type into the shape cli parses (help
// COMMAND, global flags after the command, flags after arguments), refuses
// unknown flags and commands with a suggestion, and marks every command
// line mistake as an EREQUEST error (Usagef), which a main maps to its usage exit code.
// It knows no command of any program: it reads them from the *cli.App.
package cliargs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// Normalize rewrites a command line (args[0] is the program name) into the
// shape urfave/cli/v2 parses, so that what users type works as they expect:
//   - `emobench help stats passk` becomes `emobench stats passk --help`;
//   - global flags (--db, …) anywhere before "--" move in front of the
//     command (urfave/cli/v2 reads them only there);
//   - a command's flags that follow its arguments move in front of them,
//     and "--" goes before arguments that start with a dash, such as an
//     SQL comment (`emobench sql "-- note\nSELECT 1"`).
//
// It fails with an EREQUEST error naming a mistyped command after `help`, or a
// flag shaped word before "--" that neither the app nor its command defines.
func Normalize(app *cli.App, args []string) ([]string, error) {
	args, err := helpAsFlag(app, args)
	if err != nil {
		return nil, err
	}
	if err := checkFlags(app, args); err != nil {
		return nil, err
	}
	return interspersedFlags(app, args), nil
}

// checkFlags refuses a flag that neither its command nor the app defines,
// as the flag package would, naming the nearest flag. Only words shaped
// like flags (--name, -n, --name=v) are flags; "-", "-5" and "-- text" are
// arguments.
func checkFlags(app *cli.App, args []string) error {
	commands, flags, path := app.Commands, app.Flags, []string{}
	inPath := true
	for i := 1; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			return nil
		case flagShaped.MatchString(arg):
			if lookupFlag(flags, arg) == nil && !isFlag(nil, arg) && !isGlobalFlag(app, arg) {
				return unknownFlag(append(slices.Clone(flags), app.Flags...), path, arg)
			}
			if takesValue(flags, arg) || (lookupFlag(flags, arg) == nil && takesValue(app.Flags, arg)) {
				i++
			}
		case inPath && findCommand(commands, arg) != nil:
			cmd := findCommand(commands, arg)
			commands, flags, path = cmd.Subcommands, cmd.Flags, append(path, arg)
		default:
			inPath = false
		}
	}
	return nil
}

// flagShaped matches a word meant as a flag: --name, -n, --name=value.
var flagShaped = regexp.MustCompile(`^--?[A-Za-z][A-Za-z0-9-]*(=|$)`)

// unknownFlag is the usage error for flag arg, which none of flags
// defines, suggesting the nearest of their names.
func unknownFlag(flags []cli.Flag, path []string, arg string) error {
	name, _ := flagName(arg)
	var names []string
	for _, f := range flags {
		if !isHidden(f) {
			names = append(names, f.Names()...)
		}
	}
	where := ""
	if len(path) > 0 {
		where = fmt.Sprintf(" for %q", strings.Join(path, " "))
	}
	if s := suggest(names, name); s != "" {
		return Usagef("flag provided but not defined: --%s%s; did you mean --%s?", name, where, s)
	}
	return Usagef("flag provided but not defined: --%s%s", name, where)
}

func isHidden(f cli.Flag) bool {
	v, ok := f.(cli.VisibleFlag)
	return ok && !v.IsVisible()
}

// helpAsFlag turns `help [COMMAND...]` (after any global flags) into
// `[COMMAND...] --help`, which prints the same help at any depth (urfave's
// own help command reads one level).
func helpAsFlag(app *cli.App, args []string) ([]string, error) {
	i := 1
	for i < len(args) && isGlobalFlag(app, args[i]) {
		if takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) || (args[i] != "help" && args[i] != "h") {
		return args, nil
	}
	if i+1 < len(args) && (args[i+1] == "help" || args[i+1] == "h") {
		return append(slices.Clip(args[:i]), "--help"), nil // help help: the app's help
	}
	out := append(slices.Clip(args[:i]), args[i+1:]...)
	commands, path := app.Commands, []string{}
	for _, name := range args[i+1:] {
		if strings.HasPrefix(name, "-") {
			break
		}
		cmd := findCommand(commands, name)
		if cmd == nil {
			return nil, unknownCommand(commands, path, name)
		}
		commands, path = cmd.Subcommands, append(path, name)
	}
	return append(out, "--help"), nil
}

// interspersedFlags moves a command's flags that follow its arguments in
// front of them, so `emobench runs tag 7 --base-run 3` parses as users
// expect (urfave/cli/v2 stops reading flags at the first argument), and
// moves global flags given after the command (`emobench runs --db x.db`)
// in front of it. A command's own flag of the same name as a global one
// stays the command's. Arguments after "--" are left alone.
func interspersedFlags(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var global, path, leading, positional []string
	commands, flags := app.Commands, app.Flags
	atApp, inPath := true, true
	appFlags := 0 // how many words of path come before the command
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i:]...)
			break
		}
		isFlagArg := flagShaped.MatchString(arg)
		switch {
		case isFlagArg && !atApp && lookupFlag(flags, arg) == nil && isGlobalFlag(app, arg):
			global = append(global, arg)
			if takesValue(app.Flags, arg) && i+1 < len(args) {
				global = append(global, args[i+1])
				i++
			}
		case isFlagArg && (inPath || isFlag(flags, arg)):
			dst := &leading
			if inPath {
				dst = &path // flags between commands keep their places
			}
			*dst = append(*dst, arg)
			if takesValue(flags, arg) && i+1 < len(args) {
				*dst = append(*dst, args[i+1])
				i++
			}
		case inPath && findCommand(commands, arg) != nil:
			cmd := findCommand(commands, arg)
			if atApp {
				appFlags = len(path)
			}
			path = append(path, arg)
			commands, flags, atApp = cmd.Subcommands, cmd.Flags, false
		default:
			inPath = false
			positional = append(positional, arg)
		}
	}
	// Global flags given after the command go after those given before it:
	// the last --db given wins, wherever it stands.
	out := append(append(append(append([]string{args[0]}, path[:appFlags]...), global...), path[appFlags:]...), leading...)
	if len(positional) > 0 && positional[0] != "--" && positional[0] != "-" && strings.HasPrefix(positional[0], "-") {
		out = append(out, "--") // the flag parser would read it as a flag
	}
	return append(out, positional...)
}

// isGlobalFlag reports whether arg names one of the app's own flags or
// --version, which urfave adds to them only when the app runs. --help is
// every command's own.
func isGlobalFlag(app *cli.App, arg string) bool {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return false
	}
	name, _ := flagName(arg)
	if slices.Contains(cli.HelpFlag.Names(), name) {
		return false
	}
	return lookupFlag(app.Flags, arg) != nil || (app.Version != "" && slices.Contains(cli.VersionFlag.Names(), name))
}

func findCommand(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c
		}
	}
	return nil
}

// unknownCommand is the usage error for a command name that names none of
// commands (the subcommands of path), suggesting the nearest name.
func unknownCommand(commands []*cli.Command, path []string, name string) error {
	full := strings.Join(append(slices.Clone(path), name), " ")
	var names []string
	for _, c := range commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	if s := suggest(names, name); s != "" {
		return Usagef("no command %q; did you mean %q?", full, strings.Join(append(slices.Clone(path), s), " "))
	}
	return Usagef("no command %q (commands: %s)", full, strings.Join(names, ", "))
}

// suggest returns the name a mistyped word most likely meant: the only
// name it is a prefix of (two letters at least), else the name nearest in
// edits (Levenshtein, with a swap of two neighbouring letters one edit)
// within 1 edit for words up to 4 letters and 2 for longer ones (the first
// such name on a tie), else "".
func suggest(names []string, word string) string {
	var prefixed []string
	for _, n := range names {
		if len(word) >= 2 && strings.HasPrefix(n, word) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	limit := 1
	if len(word) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, n := range names {
		d := smetrics.WagnerFischer(word, n, 1, 1, 1)
		if swapped(word, n) {
			d = 1
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// swapped reports whether a and b differ only by two neighbouring letters
// in swapped order ("tga" and "tag").
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
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
