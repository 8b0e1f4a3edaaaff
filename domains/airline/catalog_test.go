package airline

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestCatalog_Validate(t *testing.T) {
	d, ok := New().(sim.CatalogDomain)
	if !ok {
		t.Fatal("New() is not a sim.CatalogDomain")
	}
	c := d.Catalog()
	if err := c.Validate(d.NewEnvironment().Tools()); err != nil {
		t.Fatal(err)
	}
	kinds := map[sim.IntentKind]int{}
	for _, in := range c.Intents {
		kinds[in.Kind]++
		if len(in.Templates) < 3 {
			t.Errorf("intent %s: %d templates, want at least 3", in.Name, len(in.Templates))
		}
		for _, tmpl := range in.Templates {
			for _, tool := range Tools() {
				if strings.Contains(tmpl, tool.Name) {
					t.Errorf("intent %s: template names the tool %s: %q", in.Name, tool.Name, tmpl)
				}
			}
		}
	}
	for _, k := range []sim.IntentKind{sim.IntentWrite, sim.IntentRead, sim.IntentForbidden, sim.IntentTransfer} {
		if kinds[k] == 0 {
			t.Errorf("no intent of kind %s", k)
		}
	}
	users := c.Users(d.NewEnvironment())
	if got, want := len(users), initialDB().Users.Len(); got != want || !slices.IsSorted(users) {
		t.Errorf("Users: %d ids (sorted %v), want the %d users sorted", got, slices.IsSorted(users), want)
	}
	a, facts := c.Authenticate(d.NewEnvironment(), users[0], rand.New(rand.NewPCG(1, 2)))
	if a.Name != ToolGetUserDetails || facts["user_id"] != users[0] {
		t.Errorf("Authenticate = %s %s, facts %v", a.Name, a.Arguments, facts)
	}
}

// grounded is one grounded intent with the user it was grounded for.
type grounded struct {
	intent sim.Intent
	user   string
	g      sim.Grounding
}

// groundAll grounds every intent of the catalog for users of the initial
// database, in a seeded order, until it has perIntent groundings of each
// or has tried maxUsers users; it fails the test for an intent it never
// grounds, or a grounder that changes the environment it reads.
func groundAll(t *testing.T, perIntent, maxUsers int) []grounded {
	t.Helper()
	c := Catalog()
	env := newEnv(initialState())
	before := env.Hash()
	users := c.Users(env)
	rng := rand.New(rand.NewPCG(7, 11))
	rng.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
	used := map[string]bool{}
	var out []grounded
	for _, in := range c.Intents {
		n := 0
		for _, u := range users[:min(maxUsers, len(users))] {
			if n == perIntent {
				break
			}
			g, ok := in.Ground(sim.GroundContext{Env: env, UserID: u, Rand: rng, Used: func(id string) bool { return used[id] }})
			if !ok {
				continue
			}
			for _, id := range g.Uses {
				used[id] = true
			}
			out = append(out, grounded{in, u, g})
			n++
		}
		if n == 0 {
			t.Errorf("intent %s: no user of %d could ground it", in.Name, maxUsers)
		}
	}
	if env.Hash() != before {
		t.Fatal("a grounder changed the environment it was given")
	}
	return out
}

func writeSet() map[string]bool {
	w := map[string]bool{}
	for _, tl := range Tools() {
		w[tl.Name] = tl.Writes
	}
	return w
}

// TestCatalog_Ground checks every grounded intent: the gold actions follow
// the intent's path and replay after authentication without a tool error,
// each write passing the policy where it is made; a forbidden intent's
// actions only read and its forbidden writes break the policy yet succeed
// at the tool level; templates render; facts are well formed; the request
// names the tools that complete it; and every string a gold write passes
// is known to the user or found by an earlier call.
func TestCatalog_Ground(t *testing.T) {
	per, users := 6, 500
	if testing.Short() {
		per, users = 2, 200
	}
	c := Catalog()
	writes := writeSet()
	// Enumerated words the request states anyway are the agent's own.
	own := map[string]bool{"reason": true, "trip_type": true}
	count := 0
	for _, gr := range groundAll(t, per, users) {
		in, g := gr.intent, gr.g
		name := fmt.Sprintf("%s/%s", in.Name, gr.user)
		count++
		for _, tmpl := range in.Templates {
			if _, err := sim.RenderTemplate(tmpl, g.Slots); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		for k, v := range g.Facts {
			if !factKey.MatchString(k) || v == "" {
				t.Errorf("%s: fact %q = %q: want a snake_case key and a value", name, k, v)
			}
		}
		if g.Request.Text == "" || len(g.Request.Tools) == 0 {
			t.Errorf("%s: request %+v needs text and tools", name, g.Request)
		}
		if err := followsPath(g.Actions, in.Path, writes); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var goldWrites []string
		for _, a := range g.Actions {
			if writes[a.Name] {
				goldWrites = append(goldWrites, a.Name)
			}
		}
		switch in.Kind {
		case sim.IntentWrite:
			if !slices.Equal(goldWrites, g.Request.Tools) {
				t.Errorf("%s: request tools %v, want the gold writes %v", name, g.Request.Tools, goldWrites)
			}
		case sim.IntentRead, sim.IntentForbidden:
			if len(goldWrites) > 0 {
				t.Errorf("%s: a %s intent writes %v", name, in.Kind, goldWrites)
			}
		case sim.IntentTransfer:
			if last := g.Actions[len(g.Actions)-1]; last.Name != ToolTransfer || len(goldWrites) > 0 {
				t.Errorf("%s: a transfer intent ends with %s and writes %v", name, last.Name, goldWrites)
			}
		}
		if (in.Kind == sim.IntentForbidden) != (len(g.Forbidden) > 0) && in.Kind != sim.IntentTransfer {
			t.Errorf("%s: kind %s with %d forbidden writes", name, in.Kind, len(g.Forbidden))
		}
		if in.Kind != sim.IntentWrite {
			for _, tool := range g.Request.Tools {
				if !slices.ContainsFunc(g.Actions, func(a emobench.Action) bool { return a.Name == tool }) {
					t.Errorf("%s: request tool %s is no gold action", name, tool)
				}
			}
		}

		env := newEnv(initialState())
		auth, authFacts := c.Authenticate(env, gr.user, nil)
		facts := map[string]bool{}
		for _, fs := range []map[string]string{authFacts, g.Facts} {
			for _, v := range fs {
				facts[v] = true
			}
		}
		var read strings.Builder // what the gold reads found
		if res, err := env.Call(auth.Name, auth.Arguments); err != nil {
			t.Fatalf("%s: authenticate: %v", name, err)
		} else {
			read.WriteString(res + "\n")
		}
		for i, a := range g.Actions {
			if writes[a.Name] {
				if err := c.CheckPolicy(env, gr.user, a); err != nil {
					t.Errorf("%s: gold write %d %s(%s) breaks the policy: %v", name, i, a.Name, a.Arguments, err)
				}
				for _, v := range argScalars(t, a, own) {
					if !facts[v] && !strings.Contains(read.String(), v) {
						t.Errorf("%s: %s passes %q, which is no fact and no earlier read found", name, a.Name, v)
					}
				}
			}
			res, err := env.Call(a.Name, a.Arguments)
			if err != nil {
				t.Errorf("%s: action %d %s(%s): %v", name, i, a.Name, a.Arguments, err)
			}
			if !writes[a.Name] {
				read.WriteString(res + "\n")
			}
		}
		for _, f := range g.Forbidden {
			if slices.ContainsFunc(g.Actions, func(a emobench.Action) bool { return a.Name == f.Name }) {
				t.Errorf("%s: forbidden %s is among the gold actions", name, f.Name)
			}
			if err := c.CheckPolicy(env, gr.user, f); err == nil {
				t.Errorf("%s: forbidden %s(%s) passes the policy", name, f.Name, f.Arguments)
			}
			try := newEnv(cloneDB(t, env.State))
			h := try.Hash()
			if _, err := try.Call(f.Name, f.Arguments); err != nil || try.Hash() == h {
				t.Errorf("%s: forbidden %s(%s) does not change the state at the tool level: %v", name, f.Name, f.Arguments, err)
			}
		}
	}
	t.Logf("%d groundings of %d intents", count, len(c.Intents))
}

// followsPath reports whether actions walk path: each step of path in
// order, repeated once per entity, with only reads in between.
func followsPath(actions []emobench.Action, path []string, writes map[string]bool) error {
	i := 0
	for _, a := range actions {
		switch {
		case i < len(path) && a.Name == path[i]:
			i++
		case i > 0 && a.Name == path[i-1]:
		case writes[a.Name]:
			return fmt.Errorf("write %s is off the path %v", a.Name, path)
		}
	}
	if i < len(path) {
		return fmt.Errorf("actions do not reach step %d (%s) of the path %v", i, path[i], path)
	}
	return nil
}

// argScalars returns the scalar values in a's arguments as text, numbers
// as JSON writes them, skipping the top-level names in skip: what the
// facts reachable check compares.
func argScalars(t *testing.T, a emobench.Action, skip map[string]bool) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(a.Arguments)))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		t.Fatalf("%s: %v", a.Name, err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case json.Number:
			out = append(out, v.String())
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for k, v := range args {
		if !skip[k] {
			walk(v)
		}
	}
	return out
}

// catalogTask assembles the single-intent task Tracer would build from a
// grounding: authentication, then the intent.
func catalogTask(gr grounded, i int, rng *rand.Rand) *emobench.TaskSpec {
	c := Catalog()
	auth, facts := c.Authenticate(newEnv(initialState()), gr.user, rng)
	for k, v := range gr.g.Facts {
		facts[k] = v
	}
	instruction, _ := sim.RenderTemplate(gr.intent.Templates[i%len(gr.intent.Templates)], gr.g.Slots)
	families := gr.intent.Families
	if families == nil {
		for _, f := range emobench.Taxonomy.Families {
			families = append(families, f.Name)
		}
	}
	fam := families[i%len(families)]
	var leaf string
	for _, f := range emobench.Taxonomy.Families {
		if f.Name == fam {
			leaf = f.Leaves[i%len(f.Leaves)]
		}
	}
	dims := emobench.Taxonomy.Dimensions
	outputs := gr.g.Outputs
	if outputs == nil {
		outputs = []string{}
	}
	return &emobench.TaskSpec{
		ID: fmt.Sprintf("airline-catalog-%s-%d", gr.intent.Name, i), Domain: Name, Split: emobench.SplitTest,
		UserID:      gr.user,
		Instruction: fmt.Sprintf("My user id is %s. %s", gr.user, instruction),
		Scenario:    emobench.Scenario{Facts: facts, Requests: []emobench.Request{gr.g.Request}},
		Actions:     append([]emobench.Action{auth}, gr.g.Actions...),
		Outputs:     outputs,
		Forbidden:   gr.g.Forbidden,
		Emotion: emobench.EmotionProfile{Family: fam, Leaf: leaf,
			Politeness: dims["politeness"][i%3], Urgency: dims["urgency"][(i/3)%3], Trust: dims["trust"][(i/9)%3]},
	}
}

// TestCatalog_Episodes runs single-intent tasks from every intent: the
// oracle with the scripted user passes each in both conditions, and the
// careless agent fails every one with forbidden writes.
func TestCatalog_Episodes(t *testing.T) {
	per := 3
	if testing.Short() {
		per = 1
	}
	ctx := context.Background()
	d := New()
	rng := rand.New(rand.NewPCG(3, 5))
	careless, carelessFailed := 0, 0
	for i, gr := range groundAll(t, per, 500) {
		task := catalogTask(gr, i, rng)
		if err := task.Validate(); err != nil {
			t.Fatal(err)
		}
		want := emobench.TerminationUserStop
		if n := len(task.Actions); task.Actions[n-1].Name == ToolTransfer {
			want = emobench.TerminationTransfer
		}
		for _, withEmotions := range []bool{true, false} {
			traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: d, Task: task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: withEmotions, Seed: 1})
			if err != nil {
				t.Fatalf("%s: %v", task.ID, err)
			}
			if !traj.Passed() || traj.TerminationReason != want {
				t.Errorf("%s (emotions %v): oracle ends %s with reward %v, want %s and 1\nreward_info: %s\ntranscript:\n%s",
					task.ID, withEmotions, traj.TerminationReason, rewardOf(traj), want, traj.RewardInfo, transcript(traj))
			}
		}
		if len(task.Forbidden) == 0 {
			continue
		}
		careless++
		traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: d, Task: task, Agent: sim.Careless{}, User: sim.ScriptedUser{}, WithEmotions: false, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", task.ID, err)
		}
		if traj.Passed() {
			t.Errorf("%s: careless passes a task with forbidden writes\ntranscript:\n%s", task.ID, transcript(traj))
		} else {
			carelessFailed++
		}
	}
	if careless == 0 {
		t.Fatal("no task with forbidden writes")
	}
	t.Logf("careless failed %d of %d tasks with forbidden writes", carelessFailed, careless)
}

func rewardOf(traj *emobench.Trajectory) any {
	if traj.Reward == nil {
		return nil
	}
	return *traj.Reward
}

func transcript(traj *emobench.Trajectory) string {
	var b strings.Builder
	for _, m := range traj.Messages {
		fmt.Fprintf(&b, "  %s: %s", m.Role, m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, " [%s %s]", c.Name, c.Arguments)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestCatalog_Chains grounds two or three intents in a row for one user,
// as Tracer does for a multi-intent task: each grounder sees the state
// after the earlier intents' gold actions, and its writes still replay and
// pass the policy there while its forbidden writes fail it.
func TestCatalog_Chains(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	c := Catalog()
	writes := writeSet()
	rng := rand.New(rand.NewPCG(13, 17))
	users := c.Users(newEnv(initialState()))
	chains, multiWrite := 0, 0
	for range n {
		user := users[rng.IntN(len(users))]
		env := newEnv(initialState())
		auth, _ := c.Authenticate(env, user, rng)
		if _, err := env.Call(auth.Name, auth.Arguments); err != nil {
			t.Fatal(err)
		}
		k := 2 + rng.IntN(2)
		nWrites, grounded := 0, 0
		for range k {
			in := c.Intents[rng.IntN(len(c.Intents))]
			before := env.Hash()
			g, ok := in.Ground(sim.GroundContext{Env: env, UserID: user, Rand: rng})
			if env.Hash() != before {
				t.Fatalf("%s/%s: the grounder changed the environment", in.Name, user)
			}
			if !ok {
				continue
			}
			grounded++
			for _, f := range g.Forbidden {
				if err := c.CheckPolicy(env, user, f); err == nil {
					t.Errorf("%s/%s after earlier intents: forbidden %s(%s) passes the policy", in.Name, user, f.Name, f.Arguments)
				}
			}
			for _, a := range g.Actions {
				if writes[a.Name] {
					nWrites++
					if err := c.CheckPolicy(env, user, a); err != nil {
						t.Errorf("%s/%s after earlier intents: %s(%s): %v", in.Name, user, a.Name, a.Arguments, err)
					}
				}
				if _, err := env.Call(a.Name, a.Arguments); err != nil {
					t.Errorf("%s/%s after earlier intents: %s(%s): %v", in.Name, user, a.Name, a.Arguments, err)
				}
			}
		}
		if grounded >= 2 {
			chains++
		}
		if nWrites >= 2 {
			multiWrite++
		}
	}
	if chains == 0 || multiWrite == 0 {
		t.Fatalf("%d chains of two or more intents, %d with two or more writes; want some of each", chains, multiWrite)
	}
	t.Logf("%d of %d chains grounded two or more intents, %d hold two or more writes", chains, n, multiWrite)
}
