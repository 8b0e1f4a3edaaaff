package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the tests a config directory of their own: run seals
// llm: run configs with a key it makes there (workbench.LoadSealKey), and
// a test must write nothing in the real user's home.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "emobench-test-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
