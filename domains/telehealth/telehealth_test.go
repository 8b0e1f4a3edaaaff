package telehealth

import (
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// TestDomain runs the conformance suite every domain shares; the other
// tests hold what is particular to telehealth.
func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// newEnv returns an environment over a fresh fork of the initial state.
func newEnv() *sim.StateEnv[DB] { return New().NewEnvironment().(*sim.StateEnv[DB]) }
