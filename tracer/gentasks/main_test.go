package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

func TestRun_ErrBadArgs(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "usage: gentasks -domain"},
		{[]string{"-domain", "nosuch"}, `no domain "nosuch"`},
		{[]string{"-domain", "retail", "extra"}, "usage: gentasks -domain"},
		{[]string{"-nosuchflag"}, "flag provided but not defined"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tt.args, &stderr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}

// A registered domain not declared with sim.NewDomain has no task sets to
// generate from: the error says so and nothing is written.
func TestRun_ErrNotDeclared(t *testing.T) {
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := dom.(sim.TaskSetDomain); ok {
			continue
		}
		dir := t.TempDir()
		var stderr bytes.Buffer
		err = run(context.Background(), []string{"-domain", name, "-out", dir + "/t.json", "-train-out", dir + "/tr.json"}, &stderr)
		if err == nil || !strings.Contains(err.Error(), "declares no task sets") {
			t.Errorf("%s: run = %v, want an error saying it declares no task sets", name, err)
		}
		return
	}
	t.Skip("every domain is declared with sim.NewDomain")
}
