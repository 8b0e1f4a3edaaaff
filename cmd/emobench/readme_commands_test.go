package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// quotedWord matches a single- or double-quoted shell word, which holds no
// flag of the command line it is in (a query, a title).
var quotedWord = regexp.MustCompile(`'[^']*'|"[^"]*"`)

// TestREADME_CommandsExist holds every emobench command line of README.md's
// sh blocks, those no test runs too (a model behind an endpoint, real
// files), to the CLI: its command and subcommand exist and each flag it
// gives is one of theirs or a global one. A flag renamed in a command's
// help then fails here until the README follows.
func TestREADME_CommandsExist(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	global := flagNames(app.Flags)
	checked := 0
	for _, line := range readmeShellLines(string(readme)) {
		words := strings.Fields(quotedWord.ReplaceAllString(line, "Q"))
		if len(words) == 0 || words[0] != "emobench" {
			continue
		}
		var cmd *cli.Command
		cmds := app.Commands
		path := "emobench"
		flags := map[string]bool{}
		for i := 1; i < len(words); i++ {
			w := words[i]
			if w == ">" || strings.HasPrefix(w, ">") {
				break // a redirection ends the command's words
			}
			if strings.HasPrefix(w, "-") && w != "-" {
				name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
				if name == "db" && i+1 < len(words) {
					i++ // the global flag's value may name a file like a command
				}
				if !global[name] && !flags[name] && name != "help" && name != "version" {
					t.Errorf("README.md: %q: %s has no flag --%s", line, path, name)
				}
				continue
			}
			if sub := findCommand(cmds, w); sub != nil {
				cmd, cmds = sub, sub.Subcommands
				flags = flagNames(sub.Flags)
				path += " " + sub.Name
				continue
			}
			if cmd == nil || len(cmds) > 0 {
				// A command with subcommands takes no argument but them.
				t.Errorf("README.md: %q: %s has no command %q", line, path, w)
				break
			}
		}
		if cmd == nil && !strings.Contains(line, "--version") {
			t.Errorf("README.md: %q names no command", line)
		}
		checked++
	}
	if checked < 40 {
		t.Errorf("checked %d README command lines, want every one (at least 40)", checked)
	}
}

// readmeShellLines is every line of the ```sh blocks of readme, a trailing
// backslash joining a line to the next, a trailing "# comment" cut.
func readmeShellLines(readme string) []string {
	var lines []string
	in := false
	var cont string
	for _, line := range strings.Split(readme, "\n") {
		switch trimmed := strings.TrimSpace(line); {
		case trimmed == "```sh":
			in = true
		case trimmed == "```":
			in = false
		case in:
			if before, _, ok := strings.Cut(trimmed, "  #"); ok {
				trimmed = strings.TrimSpace(before)
			}
			if strings.HasSuffix(trimmed, `\`) {
				cont += strings.TrimSuffix(trimmed, `\`) + " "
				continue
			}
			lines = append(lines, cont+trimmed)
			cont = ""
		}
	}
	return lines
}

// findCommand is the command of cmds named name (or one of its aliases).
func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// flagNames is the set of every name and alias of flags.
func flagNames(flags []cli.Flag) map[string]bool {
	names := map[string]bool{}
	for _, f := range flags {
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	return names
}
