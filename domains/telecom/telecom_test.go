package telecom

import (
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// TestDomain runs the conformance suite every domain passes
// (sim/domaintest): tools, catalog, tasks, oracle, fork against deep copy,
// determinism, audit and fresh task files.
func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// TestDomain_Policy checks that the policy states the plan change rule and
// that the tools leave the policy to the agent.
func TestDomain_Policy(t *testing.T) {
	if p := strings.Join(strings.Fields(New().Policy()), " "); !strings.Contains(p, "next billing cycle") || !strings.Contains(p, "The tools do not check this policy") {
		t.Errorf("Policy does not state the plan change rule and that the tools do not check it")
	}
}

// newEnv returns an environment over a fresh fork of the initial state.
func newEnv() *sim.StateEnv[DB] { return New().NewEnvironment().(*sim.StateEnv[DB]) }

// initialState returns a fork of the initial state, for reading.
func initialState() *DB { return newEnv().State }
