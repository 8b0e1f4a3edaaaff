package retail

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// preAccepts matches instruction text that accepts a refusal in advance.
var preAccepts = regexp.MustCompile(`(?i)\baccept\b|if the agent|cannot be done|can't be done|that's fine|if not`)

// toolAccepts are the forbidden intents whose forbidden write the store's
// systems carry out (the policy alone forbids it); the others' writes the
// tools refuse too (an order's status, an unaccepted reason, items
// already changed).
var toolAccepts = map[string]bool{
	"exchange_for_other_product":   true,
	"modify_item_to_other_product": true,
	"refund_to_other_method":       true,
	"cancel_other_users_order":     true,
}

// TestRefusals checks the embedded refusal tasks (those with forbidden
// writes): no gold write is forbidden, the instructions do not accept a
// refusal in advance, and each forbidden write is what the tools make of
// it after the gold: carried out, changing the state, exactly for the
// intents of toolAccepts, refused, leaving the state, for the others.
// Cancels, returns, exchanges and item changes are all forbidden somewhere.
func TestRefusals(t *testing.T) {
	kind := map[string]sim.IntentKind{}
	for _, in := range Catalog().Intents {
		kind[in.Name] = in.Kind
	}
	tools, refusals := map[string]int{}, 0
	for _, task := range New().Tasks() {
		if len(task.Forbidden) == 0 {
			continue
		}
		refusals++
		for _, a := range task.Actions {
			if slices.ContainsFunc(task.Forbidden, func(f emobench.Action) bool { return sim.ForbiddenMatch(f, a) }) {
				t.Errorf("task %s: gold action %s is forbidden", task.ID, a.Name)
			}
		}
		if m := preAccepts.FindString(task.Instruction); m != "" {
			t.Errorf("task %s: instruction %q accepts a refusal in advance (%q)", task.ID, task.Instruction, m)
		}
		forbidden := slices.DeleteFunc(slices.Clone(task.Intents), func(name string) bool { return kind[name] != sim.IntentForbidden })
		for _, f := range task.Forbidden {
			tools[f.Name]++
			env := replay(t, task.Actions...)
			before := env.Hash()
			_, err := env.Call(f.Name, f.Arguments)
			accepted, changed := err == nil, env.Hash() != before
			if accepted != changed {
				t.Errorf("task %s: forbidden %s%s: error %v, state changed %v", task.ID, f.Name, f.Arguments, err, changed)
			}
			if len(forbidden) == 1 && accepted != toolAccepts[forbidden[0]] {
				t.Errorf("task %s (%s): forbidden %s%s carried out %v (error %v), want %v", task.ID, forbidden[0], f.Name, f.Arguments, accepted, err, toolAccepts[forbidden[0]])
			}
		}
	}
	if refusals < NumTestTasks/10 {
		t.Errorf("refusal tasks = %d, want at least %d", refusals, NumTestTasks/10)
	}
	for _, name := range []string{ToolCancelOrder, ToolReturnItems, ToolExchangeItems, ToolModifyItems} {
		if tools[name] == 0 {
			t.Errorf("no refusal task forbids %s", name)
		}
	}
}

// minGroundable is the least number of the 500 users every forbidden
// and transfer intent must ground for on the initial data, alone (no
// earlier intent in the task), so that a test split can hold each at least
// twice on distinct users and orders.
const minGroundable = 25

// TestCatalog_RefusalsAndTransfersGroundForManyUsers counts, for every
// forbidden and transfer intent, the users it grounds for as a task's
// first intent, and logs the counts.
func TestCatalog_RefusalsAndTransfersGroundForManyUsers(t *testing.T) {
	c := Catalog()
	env := New().NewEnvironment()
	users := c.Users(env)
	for _, in := range c.Intents {
		if in.Kind != sim.IntentForbidden && in.Kind != sim.IntentTransfer {
			continue
		}
		n := 0
		for i, u := range users {
			if _, ok := in.Ground(sim.GroundContext{Env: env, UserID: u, Rand: rand.New(rand.NewPCG(uint64(i), 1))}); ok {
				n++
			}
		}
		t.Logf("%s: %d of %d users", in.Name, n, len(users))
		if n < minGroundable {
			t.Errorf("%s grounds for %d of %d users, want >= %d", in.Name, n, len(users), minGroundable)
		}
	}
}
