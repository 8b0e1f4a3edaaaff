package cliargs

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Alias is an old spelling of a flag that still works: on the command
// Command (its path, "tracer collect"), --Old VALUE is read as --New VALUE.
// The old flag takes a value. When If is set, the alias holds only for the
// values it accepts; --Old is then read as it is (the command's own flag of
// that name, if any).
type Alias struct {
	Command, Old, New string
	If                func(value string) bool
}

// Rename rewrites the old spellings of flags in args (args[0] is the
// program name) to their new names, as aliases say, and returns a note for
// each ("note: --samples is now --trials"), in the order given. It reads
// the command path as Normalize does; global flags and "--" are respected,
// and anything it does not know is left for Normalize to judge.
func Rename(app *cli.App, args []string, aliases []Alias) ([]string, []string) {
	out := slices.Clone(args)
	var notes []string
	commands, flags, path := app.Commands, app.Flags, []string{}
	inPath := true
	for i := 1; i < len(out); i++ {
		arg := out[i]
		switch {
		case arg == "--":
			return out, notes
		case flagShaped.MatchString(arg):
			name, inline := flagName(arg)
			if a := findAlias(aliases, strings.Join(path, " "), name); a != nil {
				value := ""
				switch {
				case inline:
					_, value, _ = strings.Cut(arg, "=")
				case i+1 < len(out):
					value = out[i+1]
				}
				if a.If == nil || a.If(value) {
					out[i] = "--" + a.New + strings.TrimPrefix(arg, strings.SplitN(arg, "=", 2)[0])
					notes = append(notes, fmt.Sprintf("note: --%s is now --%s", a.Old, a.New))
					if !inline {
						i++
					}
					continue
				}
			}
			if takesValue(flags, arg) || (lookupFlag(flags, arg) == nil && takesValue(app.Flags, arg)) {
				i++
			}
		case inPath && findCommand(commands, arg) != nil:
			cmd := findCommand(commands, arg)
			commands, flags, path = cmd.Subcommands, cmd.Flags, append(path, cmd.Name)
		default:
			inPath = false
		}
	}
	return out, notes
}

func findAlias(aliases []Alias, command, name string) *Alias {
	for i, a := range aliases {
		if a.Command == command && a.Old == name {
			return &aliases[i]
		}
	}
	return nil
}

// NamesFile reports whether value is meant as a file: it ends in .json or
// names an existing file (not a directory). An Alias.If for an old flag
// that took a file where the new flag of that name takes something else.
func NamesFile(value string) bool {
	if strings.HasSuffix(strings.ToLower(value), ".json") {
		return true
	}
	fi, err := os.Stat(value)
	return err == nil && !fi.IsDir()
}
