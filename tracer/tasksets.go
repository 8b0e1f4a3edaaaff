package tracer

import (
	"context"
	"fmt"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// GenerateTaskSets generates a domain's two embedded task files again from
// its declaration (sim.TaskSetDomain): what the generator program
// (tracer/gentasks, run by `go generate` in the domain's directory) writes
// and what the conformance suite (sim/domaintest) compares the embedded
// files with. dom must be a sim.CatalogDomain and a sim.TaskSetDomain;
// the error says which it is not. See GenerateSplits for the splits.
func GenerateTaskSets(ctx context.Context, dom sim.Domain) (test, train *Generated, err error) {
	cd, ok := dom.(sim.CatalogDomain)
	if !ok {
		return nil, nil, fmt.Errorf("domain %s has no intent catalog", dom.Name())
	}
	td, ok := dom.(sim.TaskSetDomain)
	if !ok {
		return nil, nil, fmt.Errorf("domain %s declares no task sets (it is not declared with sim.NewDomain)", dom.Name())
	}
	return GenerateSplits(ctx, cd, td.TaskSets())
}

// GenerateSplits generates the test split of sets (sets.Test.Count tasks,
// seed sets.Test.Seed, measuring the policy: GenerateOptions.MeasurePolicy)
// and then the train split (sets.Train.Count tasks, seed sets.Train.Seed,
// repeating no test task's action set), both with sets.Generation (see
// SplitOptions). A split with Count 0 is not generated (its Generated is
// nil). The error names the split; one that kept fewer than Count tasks
// wraps ErrShort.
func GenerateSplits(ctx context.Context, dom sim.CatalogDomain, sets sim.TaskSets) (test, train *Generated, err error) {
	if sets.Test.Count > 0 {
		test, err = Generate(ctx, dom, SplitOptions(sets.Generation, sets.Test, emobench.SplitTest, nil))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: test split: %w", dom.Name(), err)
		}
	}
	if sets.Train.Count > 0 {
		var exclude []emobench.TaskSpec
		if test != nil {
			exclude = test.Tasks
		}
		train, err = Generate(ctx, dom, SplitOptions(sets.Generation, sets.Train, emobench.SplitTrain, exclude))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: train split: %w", dom.Name(), err)
		}
	}
	return test, train, nil
}

// SplitOptions maps a domain's declared Generation and one of its task
// sets to the options of Generate: N and Seed from the set, the split,
// the tasks whose action sets it must not repeat (the test tasks, for the
// train split), MeasurePolicy for the test split, and the shares and
// distributions of g, a zero field of g meaning Tracer's default (nil
// Intents are DefaultIntents, so an IntentsDist weighs them). Everything
// else is Tracer's default, as `tracer generate` gives users.
func SplitOptions(g sim.Generation, set sim.TaskSet, split emobench.Split, exclude []emobench.TaskSpec) GenerateOptions {
	return GenerateOptions{
		N: set.Count, Seed: set.Seed, Split: split, Exclude: exclude,
		ForbiddenShare: g.ForbiddenShare, TransferShare: g.TransferShare,
		SpreadIntents: g.SpreadIntents,
		IntentsDist:   g.IntentsDist, WalkStepsDist: g.WalkStepsDist,
		MeasurePolicy: split == emobench.SplitTest, // the test split measures the policy (#21)
	}
}

// Figures is one line of a split's figures for a domain's author: the
// tasks kept of the candidates tried, the gold writes a task and how many
// tasks hold two or more, the tasks by kind and the rejected candidates
// by reason, e.g. "80 tasks of 412 candidates, 1.61 writes a task, 37
// with two or more, kinds map[…], rejected map[…]".
func (g *Generated) Figures() string {
	writes, multi := 0, 0
	for _, n := range g.Writes {
		writes += n
		if n >= 2 {
			multi++
		}
	}
	perTask := 0.0
	if len(g.Tasks) > 0 {
		perTask = float64(writes) / float64(len(g.Tasks))
	}
	return fmt.Sprintf("%d tasks of %d candidates, %.2f writes a task, %d with two or more, kinds %v, rejected %v",
		len(g.Tasks), g.Candidates, perTask, multi, g.Kinds, g.Rejected)
}

// CheckFactsReachable is Generate's facts reachable check on one task's
// gold calls, for the conformance suite: every scalar argument value of
// every gold write is in a value of facts or in the result of an earlier
// read, unless cat exempts its argument (sim.Catalog.ExemptArgs) or its
// schema in tools is an enum. results[i] is the result of actions[i]
// (len(results) == len(actions), or it panics). The error names the
// write and the value.
func CheckFactsReachable(tools []sim.ToolSchema, cat *sim.Catalog, actions []emobench.Action, results []string, facts map[string]string) error {
	if len(results) != len(actions) {
		panic(fmt.Sprintf("tracer: CheckFactsReachable: %d results of %d actions", len(results), len(actions)))
	}
	writes := map[string]bool{}
	for _, t := range tools {
		writes[t.Name] = t.Writes
	}
	return factsReachable(actions, results, writes, facts, cat.ExemptArgs, enumArgs(tools))
}
