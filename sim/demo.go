package sim

import (
	"time"

	"github.com/emobench/emobench"
)

// DemoAgents are the built-in agents the demo simulates.
var DemoAgents = []string{"oracle", "noisy:0.3"}

// DemoPlans plans the demo's runs: the scripted user against each of
// DemoAgents on every domain, with and without emotions, 3 trials each on
// the test split, named demo-<the planned name>, domain by domain.
func DemoPlans(domains []Domain, now func() time.Time) ([]PlannedRun, error) {
	var out []PlannedRun
	for _, dom := range domains {
		for _, agent := range DemoAgents {
			plans, err := Plan(RunOptions{
				Domains: []Domain{dom}, Conditions: []emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions},
				Agent: agent, User: "scripted", Trials: 3, Split: emobench.SplitTest,
				MaxSteps: DefaultMaxSteps, MaxErrors: DefaultMaxErrors, Now: now,
			})
			if err != nil {
				return nil, err
			}
			for _, p := range plans {
				p.Run.Name = "demo-" + p.Run.Name
				out = append(out, p)
			}
		}
	}
	return out, nil
}
