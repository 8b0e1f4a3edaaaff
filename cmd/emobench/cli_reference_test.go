package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"
)

//go:generate go test -run ^TestCLIReference$ -update .

// cliReferencePath is the generated CLI reference, relative to this package.
var cliReferencePath = filepath.Join("..", "..", "docs", "cli.md")

// regenerateCLIReference is the one command that rewrites docs/cli.md.
const regenerateCLIReference = "go generate ./cmd/emobench (or: go test ./cmd/emobench -run '^TestCLIReference$' -update)"

// TestCLIReference holds docs/cli.md equal to the reference cliReference
// writes from the commands' own help; with -update it rewrites the file.
func TestCLIReference(t *testing.T) {
	t.Parallel()
	got := cliReference(newApp(strings.NewReader(""), io.Discard, io.Discard))
	if *update {
		if err := os.WriteFile(cliReferencePath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cliReferencePath)
	if err != nil {
		t.Fatalf("%v: generate it with %s", err, regenerateCLIReference)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("docs/cli.md is stale (a command's help changed); regenerate it with %s and commit it. (-docs/cli.md +help):\n%s", regenerateCLIReference, diff)
	}
}

// TestCLIReference_EveryCommand: the reference has a section for every
// visible command and a row for every visible flag, so that a command
// added to newApp cannot be left out of docs/cli.md by the walk.
func TestCLIReference_EveryCommand(t *testing.T) {
	t.Parallel()
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	doc := cliReference(app)
	var walk func(path string, cmds []*cli.Command)
	sections := 0
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range visibleCommands(cmds) {
			p := path + " " + c.Name
			sections++
			if !strings.Contains(doc, "\n## "+p+"\n") {
				t.Errorf("docs/cli.md: no section %q", p)
			}
			for _, f := range visibleFlags(c.Flags) {
				name := f.Names()[0]
				dash := "--"
				if len(name) == 1 {
					dash = "-" // urfave/cli prints a one-letter flag as -n
				}
				if !regexp.MustCompile("\\| `" + dash + regexp.QuoteMeta(name) + "[ ,`]").MatchString(doc) {
					t.Errorf("docs/cli.md, %s: no row for %s%s", p, dash, name)
				}
			}
			walk(p, c.Subcommands)
		}
	}
	walk("emobench", app.Commands)
	if sections < 30 {
		t.Errorf("docs/cli.md has %d command sections, want every command (at least 30)", sections)
	}
	for _, want := range []string{"| `--db PATH` |", `(default: "emobench.db")`, "[$EMOBENCH_DB]"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/cli.md lacks the global flag text %q", want)
		}
	}
}

// cliReference is the Markdown reference of app: a contents list, then for
// the app and each visible command, depth first in help order, a "## path"
// section with the one-line usage, the usage line as help prints it, the
// description verbatim and a table of the visible flags, each with the
// text (default and environment variable included) that help prints.
func cliReference(app *cli.App) string {
	var b strings.Builder
	b.WriteString("# emobench command-line reference\n\n")
	b.WriteString("<!-- Generated from the commands' own help by TestCLIReference in\n")
	b.WriteString("     cmd/emobench/cli_reference_test.go: do not edit by hand. Regenerate with\n")
	b.WriteString("     " + regenerateCLIReference + " -->\n\n")
	b.WriteString("Every command's `--help` prints what its section says; `emobench help COMMAND [SUBCOMMAND]`\n")
	b.WriteString("prints the same. A command's flags may come before or after its arguments (`--` ends the\n")
	b.WriteString("flags), and so may the global flags: `emobench --db runs.db runs` and `emobench runs --db runs.db`\n")
	b.WriteString("are the same. Exit codes: 0 success, 1 failure (a bad input file, an unknown run), 2 usage error.\n")
	b.WriteString("The README tells the story and gives recipes; this file is only the flags.\n\n")

	b.WriteString("## Contents\n\n")
	b.WriteString("- [emobench](#emobench) (global options)\n")
	var contents func(path string, depth int, cmds []*cli.Command)
	contents = func(path string, depth int, cmds []*cli.Command) {
		for _, c := range visibleCommands(cmds) {
			p := path + " " + c.Name
			fmt.Fprintf(&b, "%s- [%s](#%s): %s\n", strings.Repeat("  ", depth), p, strings.ReplaceAll(p, " ", "-"), mdText(c.Usage))
			contents(p, depth+1, c.Subcommands)
		}
	}
	contents("emobench", 0, app.Commands)

	b.WriteString("\n## emobench\n\n")
	b.WriteString(mdText(app.Usage) + "\n\n")
	b.WriteString("```text\nemobench [global options] command [command options]\n```\n\n")
	writeDescription(&b, app.Description)
	b.WriteString("Global options (before or after the command; `--help`, `-h` and `--version`, `-v` besides):\n\n")
	writeFlags(&b, app.Flags)

	var sections func(path string, cmds []*cli.Command)
	sections = func(path string, cmds []*cli.Command) {
		for _, c := range visibleCommands(cmds) {
			p := path + " " + c.Name
			fmt.Fprintf(&b, "\n## %s\n\n", p)
			if c.Usage != "" {
				b.WriteString(mdText(c.Usage) + "\n\n")
			}
			fmt.Fprintf(&b, "```text\n%s\n```\n\n", usageLine(p, c))
			if len(c.Aliases) > 0 {
				fmt.Fprintf(&b, "Aliases: `%s`.\n\n", strings.Join(c.Aliases, "`, `"))
			}
			writeDescription(&b, c.Description)
			if subs := visibleCommands(c.Subcommands); len(subs) > 0 {
				b.WriteString("Subcommands: ")
				for i, s := range subs {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "[%s](#%s)", s.Name, strings.ReplaceAll(p+" "+s.Name, " ", "-"))
				}
				b.WriteString(".\n\n")
			}
			writeFlags(&b, c.Flags)
			sections(p, c.Subcommands)
		}
	}
	sections("emobench", app.Commands)
	return b.String()
}

// usageLine is the USAGE line help prints for command c at path, as
// urfave/cli/v2's usageTemplate writes it.
func usageLine(path string, c *cli.Command) string {
	if c.UsageText != "" {
		return c.UsageText
	}
	line := path
	if len(visibleFlags(c.Flags)) > 0 || !c.HideHelp {
		line += " [command options]"
	}
	if c.ArgsUsage != "" {
		line += " " + c.ArgsUsage
	} else if c.Args {
		line += " [arguments...]"
	}
	return line
}

// writeDescription writes desc verbatim in a text block (its examples are
// indented lines that Markdown would run together); nothing when empty.
func writeDescription(b *strings.Builder, desc string) {
	desc = strings.TrimSpace(desc)
	if desc == "" {
		return
	}
	fmt.Fprintf(b, "```text\n%s\n```\n\n", desc)
}

// writeFlags writes a table of the visible flags: the names and
// placeholder, then the usage with its default and environment variable,
// split where urfave/cli's FlagStringer puts a tab. The help flag, which
// every command has, is left out.
func writeFlags(b *strings.Builder, flags []cli.Flag) {
	flags = visibleFlags(flags)
	if len(flags) == 0 {
		b.WriteString("No flags but `--help`.\n")
		return
	}
	b.WriteString("| flag | meaning |\n|---|---|\n")
	for _, f := range flags {
		names, usage, _ := strings.Cut(cli.FlagStringer(f), "\t")
		fmt.Fprintf(b, "| `%s` | %s |\n", strings.ReplaceAll(names, "|", `\|`), mdText(usage))
	}
}

// visibleCommands is cmds without hidden ones and urfave's help command.
func visibleCommands(cmds []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	return out
}

// visibleFlags is flags without hidden ones and the help flag.
func visibleFlags(flags []cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		if f.Names()[0] == "help" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// mdText is s as one line of Markdown text that renders as s: newlines
// become spaces, and the characters Markdown (or a table) would read as
// syntax are escaped; an underscore inside a word (user_unsatisfied),
// which GitHub's Markdown never reads as emphasis, is left as it is.
func mdText(s string) string {
	rs := []rune(strings.Join(strings.Fields(s), " "))
	word := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	var b strings.Builder
	for i, r := range rs {
		if strings.ContainsRune("\\`*<>|", r) || r == '_' && !(word(i-1) && word(i+1)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
