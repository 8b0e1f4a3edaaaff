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
