package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// offlineLoopMarker is the HTML comment that README.md puts right before
// the fenced sh block of the offline Tracer loop.
const (
	offlineLoopMarker       = "<!-- offline-tracer-loop -->"
	offlineLoopOutputMarker = "<!-- offline-tracer-loop-output -->"
	fourDomainsLoopMarker   = "<!-- offline-generalization-four-domains -->"
)

// elapsed matches a printed duration ("in 0.4s", "in 1m2.5s", "in 350ms"),
// the one part of the README's quoted output that differs run to run.
var elapsed = regexp.MustCompile(`\bin [0-9][0-9.hmµns]*s\b`)

// checkREADMEExcerpt holds the quoted output after marker in README.md
// (the first ``` block after it) equal to what the commands printed: each
// of its lines but "…" (an elision) is a printed line, trailing spaces and
// durations aside, and the printed lines it names come in its order.
func checkREADMEExcerpt(t *testing.T, readme []byte, marker string, printed []string) {
	t.Helper()
	_, after, ok := strings.Cut(string(readme), marker+"\n```\n")
	if !ok {
		t.Fatalf("README.md has no %s marker before a ``` block", marker)
	}
	excerpt, _, ok := strings.Cut(after, "\n```")
	if !ok {
		t.Fatalf("README.md: the block after %s is not closed", marker)
	}
	norm := func(line string) string { return elapsed.ReplaceAllString(strings.TrimRight(line, " "), "in Ts") }
	at := 0
	for _, want := range strings.Split(excerpt, "\n") {
		if want == "…" {
			continue
		}
		i := slices.IndexFunc(printed[at:], func(got string) bool { return norm(got) == norm(want) })
		if i < 0 {
			if slices.ContainsFunc(printed, func(got string) bool { return norm(got) == norm(want) }) {
				t.Errorf("README.md quotes %q out of the order printed", want)
				continue
			}
			t.Errorf("README.md quotes %q, which the commands did not print; they printed:\n%s", want, strings.Join(printed, "\n"))
			return
		}
		at += i + 1
	}
}

// readmeOfflineLoop returns the commands of README.md's offline Tracer
// loop (readmeBlock of offlineLoopMarker).
func readmeOfflineLoop(t *testing.T) [][]string {
	t.Helper()
	return readmeBlock(t, offlineLoopMarker)
}

// readmeBlock returns the commands of the README.md block after marker,
// each split into its words (without the leading "emobench"): the lines of
// the first ```sh block after the marker, comments and blank lines left
// out, a trailing backslash joining a line to the next.
func readmeBlock(t *testing.T, offlineLoopMarker string) [][]string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := bytes.Cut(readme, []byte(offlineLoopMarker))
	if !ok {
		t.Fatalf("README.md has no %s marker", offlineLoopMarker)
	}
	sc := bufio.NewScanner(bytes.NewReader(after))
	for sc.Scan() && strings.TrimSpace(sc.Text()) == "" {
	}
	if got := strings.TrimSpace(sc.Text()); got != "```sh" {
		t.Fatalf("README.md: the line after %s is %q, want a ```sh fence", offlineLoopMarker, got)
	}
	var cmds [][]string
	var cont string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "```" {
			return cmds
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cont += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		words := shellWords(t, cont+line)
		cont = ""
		if words[0] != "emobench" {
			t.Fatalf("README.md offline loop: %q does not start with emobench", strings.Join(words, " "))
		}
		cmds = append(cmds, words[1:])
	}
	t.Fatal("README.md offline loop: no closing ``` fence")
	return nil
}

// shellWords splits line as sh would a simple command: words separated by
// spaces, single and double quotes grouping (no expansions; a $, `, |, ;,
// & or > outside single quotes fails the test, since the README's block
// must stay plain commands that this test can run).
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			w.WriteRune(r)
		case quote == 0 && (r == '\'' || r == '"'):
			quote, inWord = r, true
		case strings.ContainsRune("$`|;&><", r):
			t.Fatalf("README.md offline loop: %q uses %q; keep the block plain commands", line, r)
		case quote == 0 && unicode.IsSpace(r):
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("README.md offline loop: %q has an unclosed quote", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestREADME_OfflineTracerLoop runs README.md's "Offline in a minute"
// block as written, in an empty directory: every command exits 0, the
// exports are JSON Lines of at least one record and fewer records than
// trajectories were collected, and stats generalization prints an
// in-domain and an out-of-domain row.
func TestREADME_OfflineTracerLoop(t *testing.T) {
	cmds := readmeOfflineLoop(t)
	if len(cmds) < 5 {
		t.Fatalf("README.md offline loop has %d commands, want the whole loop", len(cmds))
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())

	var exports []string // --out files of tracer export
	var collectDB, generalization string
	var printed []string // every line the commands print, stdout and stderr
	for _, args := range cmds {
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("emobench %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		printed = append(printed, strings.Split(r.stdout+"\n"+r.stderr, "\n")...)
		sub := subcommand(args)
		switch sub {
		case "tracer collect":
			collectDB = flagValue(args, "--db")
		case "tracer export":
			exports = append(exports, flagValue(args, "--out"))
		case "stats generalization":
			generalization = r.stdout
		}
	}

	checkREADMEExcerpt(t, readme, offlineLoopOutputMarker, printed)

	if collectDB == "" {
		t.Fatal("the offline loop has no tracer collect --db FILE")
	}
	// A collection's runs name their task set in their config.
	var counts []struct{ N int }
	out := mustRun(t, "--db", collectDB, "sql", "--format", "json",
		"SELECT COUNT(*) AS n FROM trajectories t JOIN runs r ON r.id = t.run_id WHERE json_extract(r.config, '$.task_set') IS NOT NULL")
	if err := json.Unmarshal([]byte(out), &counts); err != nil || len(counts) != 1 {
		t.Fatalf("sql count: %v\n%s", err, out)
	}
	collected := counts[0].N
	if collected == 0 {
		t.Fatal("the offline loop collected no trajectories")
	}
	if len(exports) == 0 {
		t.Fatal("the offline loop exports nothing")
	}
	for _, path := range exports {
		records := jsonlRecords(t, path)
		if records < 1 || records >= collected {
			t.Errorf("%s: %d records, want at least 1 and fewer than the %d collected trajectories", path, records, collected)
		}
	}

	var in, ood bool
	for _, line := range strings.Split(generalization, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		switch f[2] { // model, domain, scope, tuned_pass_1, …
		case "in-domain":
			in = in || f[3] != "mean"
		case "out-of-domain":
			ood = ood || f[3] != "mean"
		}
	}
	if !in || !ood {
		t.Errorf("stats generalization: in-domain row %v, out-of-domain row %v; want both\n%s", in, ood, generalization)
	}
}

// subcommand is the command path of args ("tracer export", "stats
// generalization", "runs tag", "run"), global flags and their values
// skipped.
func subcommand(args []string) string {
	var path []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--db" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			break
		}
		path = append(path, a)
		if len(path) == 2 || (path[0] != "tracer" && path[0] != "stats" && path[0] != "runs") {
			break
		}
	}
	return strings.Join(path, " ")
}

// flagValue is the value given to flag name in args ("" when absent).
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// jsonlRecords is the number of lines of the JSON Lines file path, each of
// which must be one JSON object.
func jsonlRecords(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, line := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s: line %d is not a JSON object: %v", path, i+1, err)
		}
		if len(rec) == 0 {
			t.Fatalf("%s: line %d is an empty record", path, i+1)
		}
		n++
	}
	return n
}

// TestREADME_OfflineGeneralizationFourDomains runs README.md's four-domain
// generalization block as written, in an empty directory: every command
// exits 0 and stats generalization prints retail and airline in domain,
// telecom and telehealth out of domain, each with 20 paired tasks.
func TestREADME_OfflineGeneralizationFourDomains(t *testing.T) {
	cmds := readmeBlock(t, fourDomainsLoopMarker)
	if testing.Short() {
		// About 20 s; TestREADME_OfflineTracerLoop runs the same commands
		// on one domain under -short.
		t.Skip("the four-domain loop runs in the full suite")
	}
	t.Chdir(t.TempDir())
	var generalization string
	for _, args := range cmds {
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("emobench %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if subcommand(args) == "stats generalization" {
			generalization = r.stdout
		}
	}
	scopes := map[string]string{}
	for _, line := range strings.Split(generalization, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || f[0] == "model" {
			continue
		}
		scopes[f[1]] = f[2]
		// paired_tasks, tuned_run_ids, base_run_ids end the row (an
		// interval may be one field or two: "± 0.15").
		if paired := f[len(f)-3]; paired != "20" {
			t.Errorf("%s: %s paired tasks, want 20\n%s", f[1], paired, generalization)
		}
	}
	want := map[string]string{"retail": "in-domain", "airline": "in-domain", "telecom": "out-of-domain", "telehealth": "out-of-domain"}
	if !maps.Equal(scopes, want) {
		t.Errorf("stats generalization scopes %v, want %v\n%s", scopes, want, generalization)
	}
}
