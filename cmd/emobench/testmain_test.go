package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/emobench/emobench/workbench"
)

// configPrefix begins the name of the tests' config directory.
const configPrefix = "emobench-test-config-"

// TestMain gives the tests a config directory of their own: run seals
// llm: run configs with a key it makes there (workbench.LoadSealKey), and
// a test must write nothing in the real user's home.
func TestMain(m *testing.M) {
	if strings.Contains(os.Getenv("XDG_CONFIG_HOME"), configPrefix) {
		os.Exit(m.Run()) // a child process of a test: its parent's directory
	}
	dir, err := os.MkdirTemp("", configPrefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	// The seal key is made before any test runs: parallel tests making
	// it at once could read it while another is writing it.
	if _, err := workbench.LoadSealKey(workbench.DefaultSealKeyFile()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
