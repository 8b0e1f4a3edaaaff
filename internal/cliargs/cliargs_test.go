package cliargs

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/urfave/cli/v2"
)

// testApp has the shapes of emobench's command line: global --db (a value)
// and --quiet (a bool), a version, commands with and without subcommands,
// repeatable and boolean flags, and a hidden old flag name.
func testApp() *cli.App {
	formatFlag := &cli.StringFlag{Name: "format", Value: "table"}
	runFlag := &cli.StringSliceFlag{Name: "run"}
	return &cli.App{
		Name:    "emobench",
		Version: "test",
		Writer:  io.Discard, ErrWriter: io.Discard,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "db", Value: "emobench.db"},
			&cli.BoolFlag{Name: "quiet"},
		},
		Action: cli.ShowAppHelp,
		Commands: []*cli.Command{
			{Name: "ingest", Flags: []cli.Flag{&cli.StringFlag{Name: "name"}, formatFlag}, Action: noop},
			{Name: "export", Flags: []cli.Flag{formatFlag, runFlag, &cli.StringFlag{Name: "out"}}, Action: noop},
			{Name: "runs", Flags: []cli.Flag{formatFlag}, Action: noop, Subcommands: []*cli.Command{
				{Name: "tag", Action: noop, Flags: []cli.Flag{
					&cli.StringSliceFlag{Name: "train-domains"},
					&cli.StringFlag{Name: "base-run"},
					&cli.StringFlag{Name: "base", Hidden: true},
					&cli.StringSliceFlag{Name: "remove"},
				}},
				{Name: "set", Action: noop, Flags: []cli.Flag{&cli.StringFlag{Name: "name"}}},
				{Name: "rm", Action: noop},
			}},
			{Name: "stats", Subcommands: []*cli.Command{
				{Name: "passk", Action: noop, Flags: []cli.Flag{runFlag, &cli.StringFlag{Name: "k"}, &cli.StringFlag{Name: "by"}, formatFlag}},
				{Name: "generalization", Action: noop, Flags: []cli.Flag{runFlag, formatFlag}},
			}},
			{Name: "sql", Flags: []cli.Flag{formatFlag}, Action: noop},
			{Name: "run", Action: noop},
			{Name: "show", Flags: []cli.Flag{&cli.StringFlag{Name: "run"}, &cli.IntFlag{Name: "trial"}, &cli.BoolFlag{Name: "full"}}, Action: noop},
			{Name: "emotions", Before: NoArgs, Action: noop},
			{Name: "secret", Hidden: true, Action: noop},
		},
	}
}

func noop(*cli.Context) error { return nil }

func isUsage(err error) bool { return errors.Is(err, emobench.ErrRequest) }

func TestInterspersedFlags(t *testing.T) {
	app := testApp()
	app.Flags = append(app.Flags, &cli.BoolFlag{Name: "quiet"}) // a global bool flag, as --quiet
	tests := []struct{ in, want string }{
		{"runs --db x.db", "--db x.db runs"},
		{"runs --quiet --db x.db", "--quiet --db x.db runs"},
		{"runs tag 7 --base-run 3 --db=x.db", "--db=x.db runs tag --base-run 3 7"},
		{"stats passk --db x.db --run 3", "--db x.db stats passk --run 3"},
		{"--db x.db sql SELECT --format csv", "--db x.db sql --format csv SELECT"},
		{"sql --db x.db -- --db y", "--db x.db sql -- --db y"},
		{"ingest - --db x.db", "--db x.db ingest -"},
		{"runs --version", "--version runs"},
		{"runs --help", "runs --help"},
		{"sql -5 --db x.db", "--db x.db sql -- -5"},
		// The last --db wins wherever it stands.
		{"--db a.db ingest --db b.db f.json", "--db a.db --db b.db ingest f.json"},
		{"--db a.db runs --db c.db", "--db a.db --db c.db runs"},
	}
	for _, tt := range tests {
		got := strings.Join(interspersedFlags(app, append([]string{"emobench"}, strings.Fields(tt.in)...))[1:], " ")
		if got != tt.want {
			t.Errorf("%q -> %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"ingest", "export", "runs", "run", "rm", "stats", "show", "sql"}
	tests := map[string]string{
		"stat": "stats", "sohw": "show", "expotr": "export", "ingset": "ingest", "ex": "export",
		"rn": "run", "sq": "sql", "zzz": "", "s": "", "xxxxxxxx": "",
	}
	for word, want := range tests {
		if got := suggest(names, word); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestBuildVersion(t *testing.T) {
	checkout := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/emobench/emobench", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "09707439acad126a1eaa8ae7c2092b77723b98ec"}, {Key: "vcs.modified", Value: "true"}}}
	release := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}}
	tests := []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{checkout, true, "(devel), revision 09707439acad126a1eaa8ae7c2092b77723b98ec, modified, go1.26.8"},
		{release, true, "v1.2.0, go1.26.8"},
		{&debug.BuildInfo{}, true, "(devel)"},
		{nil, false, "unknown"},
	}
	for _, tt := range tests {
		if got := BuildVersion(tt.info, tt.ok); got != tt.want {
			t.Errorf("BuildVersion = %q, want %q", got, tt.want)
		}
	}
}

// Words that only look like flags after a command's argument are its
// arguments; flag-shaped unknown words are refused anywhere before "--".
func TestCheckFlags(t *testing.T) {
	app := testApp()
	for in, wantErr := range map[string]bool{
		"sql SELECT -5":                false,
		"ingest -":                     false,
		"sql --format csv -- --nosuch": false,
		"show 3 --full --db x.db":      false,
		"runs --version":               false,
		"stats passk -h":               false,
		"show 3 --fulll":               true,
		"show -x":                      true,
		"--nosuch runs":                true,
	} {
		err := checkFlags(app, append([]string{"emobench"}, strings.Fields(in)...))
		if (err != nil) != wantErr || (err != nil && !isUsage(err)) {
			t.Errorf("checkFlags(%q) = %v, want error %v (a usage error)", in, err, wantErr)
		}
	}
}

// Mistyped commands and flags are usage errors naming the nearest name
// (hidden ones never), or listing the commands when none is near.
func TestNormalize_ErrSuggests(t *testing.T) {
	tests := []struct{ in, want string }{
		{"help stats pask", `no command "stats pask"; did you mean "stats passk"?`},
		{"help runs tga", `no command "runs tga"; did you mean "runs tag"?`},
		{"help qqqqq", `no command "qqqqq" (commands: ingest, export, runs, stats, sql, run, show, emotions)`},
		{"runs --fromat csv", `flag provided but not defined: --fromat for "runs"; did you mean --format?`},
		{"runs tag 3 --bas 1", `flag provided but not defined: --bas for "runs tag"; did you mean --base-run?`},
		{"--dbb x.db runs", `flag provided but not defined: --dbb; did you mean --db?`},
		{"stats passk --zzzzzz", `flag provided but not defined: --zzzzzz for "stats passk"`},
	}
	for _, tt := range tests {
		out, err := Normalize(testApp(), append([]string{"emobench"}, strings.Fields(tt.in)...))
		if err == nil || !isUsage(err) || err.Error() != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want usage error %q", tt.in, out, err, tt.want)
		}
	}
}

func TestNormalize_HelpAsFlag(t *testing.T) {
	tests := []struct{ in, want string }{
		{"help stats passk", "stats passk --help"},
		{"--db x.db help runs tag", "--db x.db runs tag --help"},
		{"h show", "show --help"},
		{"help help", "--help"},
		{"help", "--help"},
		{"runs help", "runs help"}, // not the help command: runs' argument
	}
	for _, tt := range tests {
		out, err := Normalize(testApp(), append([]string{"emobench"}, strings.Fields(tt.in)...))
		if got := strings.Join(out[1:], " "); err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// After MarkUsageErrors, a flag's bad value, an unknown subcommand and
// NoArgs' refusal are all EREQUEST errors; a known command runs.
func TestMarkUsageErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"show --trial x", `invalid value "x" for flag -trial: parse error`},
		{"runs extra", `no command "runs extra" (commands: tag, set, rm, help)`}, // urfave adds help when it runs
		{"runs tga", `no command "runs tga"; did you mean "runs tag"?`},
		{"stat", `no command "stat"; did you mean "stats"?`},
		{"emotions x", `emotions takes no arguments, got "x" (flags go before arguments; see --help)`},
	}
	for _, tt := range tests {
		app := testApp()
		MarkUsageErrors(app)
		err := app.Run(append([]string{"emobench"}, strings.Fields(tt.in)...))
		if err == nil || !isUsage(err) || err.Error() != tt.want {
			t.Errorf("emobench %s: %v, want usage error %q", tt.in, err, tt.want)
		}
	}
	app := testApp()
	MarkUsageErrors(app)
	if err := app.Run([]string{"emobench", "runs", "tag", "3"}); err != nil {
		t.Errorf("emobench runs tag 3: %v", err)
	}
}

func TestDoubleDash(t *testing.T) {
	tests := map[string]string{
		"flag needs an argument: -run":                          "flag needs an argument: --run",
		`invalid value "x" for flag -trial: parse error`:        `invalid value "x" for flag --trial: parse error`,
		`invalid boolean value "y" for flag -full: parse error`: `invalid boolean value "y" for flag --full: parse error`,
		"flag provided but not defined: -x":                     "flag provided but not defined: --x",
		"--k -1 is not a number of trials":                      "--k -1 is not a number of trials",
	}
	for in, want := range tests {
		if got := DoubleDash(in); got != want {
			t.Errorf("DoubleDash(%q) = %q, want %q", in, got, want)
		}
	}
}

// Normalize only reorders words: every word given comes out once, with at
// most one "--" added (help aside, which it turns into --help).
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		"runs\x00--db\x00x.db", "sql\x00-- c\nSELECT 1\x00--db\x00x", "runs\x00tag\x007\x00--base-run\x003",
		"stats\x00passk\x00--k\x00-1\x00--by=condition", "ingest\x00-\x00--name\x00--db", "show\x00--\x00--full",
		"--db\x00\x00runs", "-\x00--\x00-", "stats\x00--db", "--version\x00runs\x00-v",
	} {
		f.Add(seed)
	}
	app := testApp()
	f.Fuzz(func(t *testing.T, joined string) {
		in := strings.Split(joined, "\x00")
		if slices.Contains(in, "help") || slices.Contains(in, "h") {
			return
		}
		out, err := Normalize(app, append([]string{"emobench"}, in...))
		if err != nil {
			if !isUsage(err) {
				t.Fatalf("Normalize(%q): %v is not a usage error", in, err)
			}
			return
		}
		got, want := slices.Clone(out[1:]), slices.Clone(in)
		if len(got) == len(want)+1 {
			i := slices.Index(got, "--")
			if i < 0 {
				t.Fatalf("Normalize(%q) = %q: one word more, and not \"--\"", in, out)
			}
			got = slices.Delete(got, i, i+1)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("Normalize(%q) = %q: not the same words", in, out)
		}
	})
}

// The old name of a renamed flag works, alone; both names are refused.
func TestRenamed(t *testing.T) {
	tests := []struct {
		args    string
		value   string
		set     bool
		wantErr string
	}{
		{"runs tag 7 --base-run 3", "3", true, ""},
		{"runs tag 7 --base 4", "4", true, ""},
		{"runs tag 7", "", false, ""},
		{"runs tag 7 --base 4 --base-run 3", "", false, "--base is the old name of --base-run: give one of them"},
	}
	for _, tt := range tests {
		app := testApp()
		var value string
		var set bool
		var err error
		app.Commands[2].Subcommands[0].Action = func(c *cli.Context) error {
			value, set, err = Renamed(c, "base-run", "base")
			return nil
		}
		args, nerr := Normalize(app, append([]string{"emobench"}, strings.Fields(tt.args)...))
		if nerr != nil {
			t.Fatal(nerr)
		}
		if rerr := app.Run(args); rerr != nil {
			t.Fatal(rerr)
		}
		if tt.wantErr != "" {
			if err == nil || !isUsage(err) || err.Error() != tt.wantErr {
				t.Errorf("%s: %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || value != tt.value || set != tt.set {
			t.Errorf("%s: %q, %v, %v; want %q, %v", tt.args, value, set, err, tt.value, tt.set)
		}
	}
}

// NameSettings writes a setting's error as the command's flag, keeping the
// error's code and chain; an error about a setting the command has no flag
// for, or one wrapped with context first, is left as it is.
func TestNameSettings(t *testing.T) {
	tests := []struct {
		cmd  string
		err  error
		want string
	}{
		{"export", emobench.Settingf(emobench.EREQUEST, "out", "%s exists", "x.csv"), "--out x.csv exists"},
		{"export", emobench.Settingf(emobench.ENOTFOUND, "run", ": %w", emobench.ErrNotFound), "--run: not found"},
		{"sql", emobench.Settingf(emobench.EREQUEST, "out", "%s exists", "x.csv"), "out x.csv exists"},
		{"export", fmt.Errorf("export: %w", emobench.Settingf(emobench.EREQUEST, "out", "%s exists", "x.csv")), "export: out x.csv exists"},
		{"export", emobench.Errorf(emobench.EREQUEST, "out of memory"), "out of memory"},
	}
	for _, tt := range tests {
		app := testApp()
		for _, c := range app.Commands {
			if c.Name == tt.cmd {
				c.Action = func(*cli.Context) error { return tt.err }
			}
		}
		NameSettings(app)
		err := app.Run([]string{"emobench", tt.cmd})
		if err == nil || err.Error() != tt.want || emobench.ErrorCode(err) != emobench.ErrorCode(tt.err) || !errors.Is(err, tt.err) {
			t.Errorf("%s returning %q: %v (code %q), want %q with the error's code", tt.cmd, tt.err, err, emobench.ErrorCode(err), tt.want)
		}
	}
}
