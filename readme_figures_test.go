package emobench_test

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The README's quick start says how many modules the command is built
// from (what a first build downloads); `go list -deps` counts them.
func TestREADME_CommandModuleCount(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`downloads the (\d+) modules the command is built from`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md no longer says how many modules the command is built from")
	}
	said, _ := strconv.Atoi(string(m[1]))
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if .Module}}{{.Module.Path}}{{end}}", "./cmd/emobench").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	modules := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		if line != "github.com/emobench/emobench" {
			modules[line] = true
		}
	}
	if got := len(modules); got != said {
		t.Errorf("README.md says the command is built from %d modules; go list -deps counts %d", said, got)
	}
}

// The README is a newcomer's page (issue 22): the story, concepts, install,
// quick start and recipes in at most 500 lines. Flags belong in
// docs/cli.md (generated from the commands' help) and the rest of the
// reference in docs/reference.md and docs/schema.md.
func TestREADME_Length(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 500 {
		t.Errorf("README.md has %d lines, want at most 500: move reference text to docs/reference.md, and flags to the commands' help (docs/cli.md is generated from it)", n)
	}
	for _, doc := range []string{"docs/cli.md", "docs/reference.md", "docs/schema.md"} {
		if !strings.Contains(string(readme), "("+doc+")") {
			t.Errorf("README.md does not link %s", doc)
		}
		if _, err := os.Stat(doc); err != nil {
			t.Errorf("README.md links %s: %v", doc, err)
		}
	}
}
