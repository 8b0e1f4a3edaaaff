package telehealth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// preludes name, for intents that apply only after an earlier request of
// the same task, the intent grounded and applied first. Telehealth has
// none: every forbidden write is one the clinic's systems carry out.
var preludes = map[string]string{}

func TestCatalog_Validate(t *testing.T) {
	d, ok := New().(sim.CatalogDomain)
	if !ok {
		t.Fatalf("New() is a %T, not a sim.CatalogDomain", New())
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
	}
	for _, k := range []sim.IntentKind{sim.IntentWrite, sim.IntentRead, sim.IntentForbidden, sim.IntentTransfer} {
		if kinds[k] == 0 {
			t.Errorf("no intent of kind %s", k)
		}
	}
	if got, want := len(c.Users(d.NewEnvironment())), NumPatients; got != want {
		t.Errorf("Users = %d, want %d", got, want)
	}
}

func intentByName(c *sim.Catalog, name string) sim.Intent {
	for _, in := range c.Intents {
		if in.Name == name {
			return in
		}
	}
	panic("no intent " + name)
}

// grounded is one intent grounded for a user, with its authentication.
type grounded struct {
	intent   sim.Intent
	userID   string
	auth     emobench.Action
	authRes  string
	authFact map[string]string
	g        sim.Grounding
	env      *sim.StateEnv[DB] // the state it was grounded on
}

// groundFor grounds intent for userID over a copy-on-write copy of the initial database, after its prelude
// intent when it has one; false when the user has nothing it applies to.
func groundFor(t *testing.T, c *sim.Catalog, in sim.Intent, userID string, r *rand.Rand) (grounded, bool) {
	t.Helper()
	env := newEnv() // copy-on-write: grounding many users stays fast
	auth, facts := c.Authenticate(env, userID, r)
	authRes, err := env.Call(auth.Name, auth.Arguments)
	if err != nil {
		t.Fatalf("%s: authenticate %s: %v", in.Name, userID, err)
	}
	if pre, ok := preludes[in.Name]; ok {
		pg, ok := intentByName(c, pre).Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: func(string) bool { return false }})
		if !ok {
			return grounded{}, false
		}
		for _, a := range pg.Actions {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("%s: prelude %s %s: %v", in.Name, pre, a.Name, err)
			}
		}
	}
	before := env.Hash()
	g, ok := in.Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: func(string) bool { return false }})
	if env.Hash() != before {
		t.Fatalf("%s: grounding for %s changed the environment", in.Name, userID)
	}
	return grounded{intent: in, userID: userID, auth: auth, authRes: authRes, authFact: facts, g: g, env: env}, ok
}

// scalars returns the string and number values of a call's arguments,
// array elements included, as text.
func scalars(raw json.RawMessage) []string {
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case float64:
			out = append(out, fmt.Sprint(v))
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		walk(m[k])
	}
	return out
}

// TestCatalog_Intents grounds every intent for every twentieth user (and
// more, until three, for a rare one) and checks
// each instance: grounding leaves the state alone; the gold actions call
// the intent's path, with only reads besides, and replay without a tool error; each gold write
// passes CheckPolicy; a forbidden instance's gold only reads, its
// forbidden writes fail CheckPolicy, and the store carries them out
// exactly for the intents in toolAccepts; each request tool is called;
// every template renders; every scalar argument of a gold write is in a
// fact or an earlier gold result; reads and returns name their outputs.
func TestCatalog_Intents(t *testing.T) {
	c := Catalog()
	db := initialState()
	users := c.Users(envOver(db))
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	for i, in := range c.Intents {
		t.Run(in.Name, func(t *testing.T) {
			n := 0
			step := 20
			if testing.Short() {
				step = 100
			}
			for j := 0; j < len(users); j++ {
				if j%step != 0 && n >= 3 {
					continue // a rare intent is looked for among all users
				}
				r := rand.New(rand.NewPCG(uint64(i), uint64(j)))
				gr, ok := groundFor(t, c, in, users[j], r)
				if !ok {
					continue
				}
				n++
				checkGrounded(t, c, gr, writes)
			}
			if n < 3 {
				t.Errorf("grounded for %d users, want at least 3", n)
			}
			t.Logf("%s: grounded for %d users", in.Name, n)
		})
	}
}

func checkGrounded(t *testing.T, c *sim.Catalog, gr grounded, writes map[string]bool) {
	t.Helper()
	in, g, who := gr.intent, gr.g, gr.intent.Name+"/"+gr.userID
	var names []string
	for _, a := range g.Actions {
		names = append(names, a.Name)
	}
	// The path is a subsequence of the calls; the other calls read.
	p := 0
	for _, name := range names {
		switch {
		case p < len(in.Path) && name == in.Path[p]:
			p++
		case writes[name] || name == ToolTransfer:
			t.Errorf("%s: call %s is off the path %v", who, name, in.Path)
		}
	}
	if p < len(in.Path) {
		t.Errorf("%s: actions call %v, which does not follow the path %v", who, names, in.Path)
	}
	for _, tmpl := range in.Templates {
		if _, err := sim.RenderTemplate(tmpl, g.Slots); err != nil {
			t.Errorf("%s: %v", who, err)
		}
	}
	facts := map[string]string{}
	for k, v := range gr.authFact {
		facts[k] = v
	}
	for k, v := range g.Facts {
		if !factKey.MatchString(k) || v == "" {
			t.Errorf("%s: fact %q = %q: want a snake_case key and a value", who, k, v)
		}
		facts[k] = v
	}
	known := func(v string) bool {
		for _, f := range facts {
			if strings.Contains(f, v) {
				return true
			}
		}
		return false
	}
	env := envOver(sim.CopyState(gr.env.State))
	results := []string{gr.authRes}
	nWrites := 0
	for _, a := range g.Actions {
		if writes[a.Name] {
			nWrites++
			if err := c.CheckPolicy(env, gr.userID, a); err != nil {
				t.Errorf("%s: gold %s%s: %v", who, a.Name, a.Arguments, err)
			}
			for _, v := range scalars(a.Arguments) {
				if v != "" && !known(v) && !slices.ContainsFunc(results, func(r string) bool { return strings.Contains(r, v) }) {
					t.Errorf("%s: %s argument %q is neither a fact nor in an earlier result", who, a.Name, v)
				}
			}
		}
		res, err := env.Call(a.Name, a.Arguments)
		if err != nil {
			t.Fatalf("%s: gold %s%s: %v", who, a.Name, a.Arguments, err)
		}
		results = append(results, res)
	}
	for _, tool := range g.Request.Tools {
		if !slices.Contains(names, tool) {
			t.Errorf("%s: request tool %s is not called", who, tool)
		}
	}
	if g.Request.Text == "" {
		t.Errorf("%s: no request text", who)
	}
	switch in.Kind {
	case sim.IntentWrite:
		if nWrites == 0 {
			t.Errorf("%s: write intent without a write", who)
		}
	case sim.IntentRead:
		if nWrites > 0 || len(g.Outputs) == 0 {
			t.Errorf("%s: read intent with %d writes and outputs %q", who, nWrites, g.Outputs)
		}
	case sim.IntentTransfer:
		if nWrites > 0 || names[len(names)-1] != ToolTransfer || !slices.Equal(g.Request.Tools, []string{ToolTransfer}) {
			t.Errorf("%s: transfer intent calls %v, request tools %v", who, names, g.Request.Tools)
		}
	case sim.IntentForbidden:
		if nWrites > 0 || len(g.Forbidden) == 0 {
			t.Errorf("%s: forbidden intent with %d gold writes and %d forbidden", who, nWrites, len(g.Forbidden))
		}
		// sim.Careless finds the forbidden write from the request's verb.
		var schemas []sim.ToolSchema
		for _, tl := range Tools() {
			schemas = append(schemas, tl.ToolSchema)
		}
		if tool, ok := sim.RequestedWrite(g.Request.Text, schemas); !ok || !slices.ContainsFunc(g.Forbidden, func(f emobench.Action) bool { return f.Name == tool.Name }) {
			t.Errorf("%s: request %q names the write %q (found %v), not a forbidden one", who, g.Request.Text, tool.Name, ok)
		}
		for _, f := range g.Forbidden {
			var v *PolicyViolation
			if err := c.CheckPolicy(env, gr.userID, f); !errors.As(err, &v) {
				t.Errorf("%s: forbidden %s%s passes the policy (%v)", who, f.Name, f.Arguments, err)
			}
			try := envOver(sim.CopyState(env.State))
			before := try.Hash()
			_, err := try.Call(f.Name, f.Arguments)
			if accepted := err == nil && try.Hash() != before; !accepted {
				t.Errorf("%s: forbidden %s: the tools refuse it (%v); only the policy should", who, f.Name, err)
			}
		}
	}
	if len(g.Forbidden) > 0 && in.Kind != sim.IntentForbidden {
		t.Errorf("%s: %s intent with forbidden writes", who, in.Kind)
	}
}

// taskFor assembles a single-intent task, as Tracer does: authentication,
// then the grounding, the instruction from the first template.
func taskFor(t *testing.T, gr grounded, j int) *emobench.TaskSpec {
	t.Helper()
	facts := map[string]string{}
	for k, v := range gr.authFact {
		facts[k] = v
	}
	for k, v := range gr.g.Facts {
		facts[k] = v
	}
	instr, err := sim.RenderTemplate(gr.intent.Templates[j%len(gr.intent.Templates)], gr.g.Slots)
	if err != nil {
		t.Fatal(err)
	}
	fams := gr.intent.Families
	if fams == nil {
		for _, f := range emobench.Taxonomy.Families {
			fams = append(fams, f.Name)
		}
	}
	fam, _ := emobench.FindFamily(fams[j%len(fams)])
	dim := func(name string, period int) string {
		vals := emobench.Taxonomy.Dimensions[name]
		return vals[(j/period)%len(vals)]
	}
	task := &emobench.TaskSpec{
		ID: fmt.Sprintf("telehealth-catalog-%s-%d", gr.intent.Name, j), Domain: Name, Split: emobench.SplitTest,
		UserID: gr.userID, Instruction: instr,
		Scenario: emobench.Scenario{Facts: facts, Requests: []emobench.Request{gr.g.Request}},
		Emotion: emobench.EmotionProfile{Family: fam.Name, Leaf: fam.Leaves[j%len(fam.Leaves)],
			Politeness: dim("politeness", 1), Urgency: dim("urgency", 2), Trust: dim("trust", 3)},
		Actions:   append([]emobench.Action{gr.auth}, gr.g.Actions...),
		Outputs:   gr.g.Outputs,
		Forbidden: gr.g.Forbidden,
	}
	if task.Outputs == nil {
		task.Outputs = []string{}
	}
	if err := task.Validate(); err != nil {
		t.Fatal(err)
	}
	return task
}

// TestCatalog_Episodes runs, for every intent that applies to the initial
// database, single-intent tasks for a few users: the oracle with the
// scripted user passes them in both conditions, and careless fails the
// forbidden ones.
func TestCatalog_Episodes(t *testing.T) {
	ctx := context.Background()
	c := Catalog()
	db := initialState()
	dom := New()
	users := c.Users(envOver(db))
	perIntent := 4
	if testing.Short() {
		perIntent = 1
	}
	for i, in := range c.Intents {
		if _, ok := preludes[in.Name]; ok {
			continue // needs an earlier request of its task
		}
		t.Run(in.Name, func(t *testing.T) {
			ran := 0
			for j := 0; j < len(users) && ran < perIntent; j++ {
				if j%7 != 0 && ran > 0 {
					continue // a rare intent is looked for among all users
				}
				gr, ok := groundFor(t, c, in, users[j], rand.New(rand.NewPCG(uint64(100+i), uint64(j))))
				if !ok {
					continue
				}
				task := taskFor(t, gr, ran)
				ran++
				for _, withEmotions := range []bool{true, false} {
					traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: dom, Task: task, Agent: sim.Oracle{}, User: sim.ScriptedUser{},
						WithEmotions: withEmotions, Seed: uint64(j)})
					if err != nil {
						t.Fatal(err)
					}
					if !traj.Passed() {
						t.Errorf("%s (emotions %v): oracle termination %s\nreward_info %s\nlast %q", task.ID, withEmotions,
							traj.TerminationReason, traj.RewardInfo, traj.Messages[len(traj.Messages)-1].Content)
					}
				}
				if in.Kind != sim.IntentForbidden {
					continue
				}
				traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: dom, Task: task, Agent: sim.Careless{}, User: sim.ScriptedUser{},
					WithEmotions: true, Seed: uint64(j)})
				if err != nil {
					t.Fatal(err)
				}
				if traj.Passed() {
					t.Errorf("%s: careless passed a forbidden task\nreward_info %s", task.ID, traj.RewardInfo)
				}
			}
			if ran == 0 {
				t.Errorf("no user to run %s for", in.Name)
			}
		})
	}
}

// TestCatalog_ComposedEpisodes composes two intents for one user, as
// Tracer does (the second grounded on the state after the first's gold
// actions; a fact the second gives another value gets the prefix
// "second_"), and runs the oracle with the scripted user on the task: it
// passes in both conditions, and careless fails the tasks with a
// forbidden write.
func TestCatalog_ComposedEpisodes(t *testing.T) {
	ctx := context.Background()
	c := Catalog()
	db := initialState()
	dom := New()
	users := c.Users(envOver(db))
	pairs := [][2]string{
		{"cancel_appointment", "book_appointment"},
		{"waive_no_show_fee", "waive_second_no_show_fee"},
		{"switch_medication", "update_supplier"},
		{"request_refill", "latest_reading"},
		{"replace_faulty_device", "next_appointment"},
		{"update_phone", "refill_expired_prescription"},
		{"reschedule_appointment", "cancel_late_appointment"},
		{"latest_lab_result", "update_phone"},
	}
	for i, pair := range pairs {
		t.Run(pair[0]+"+"+pair[1], func(t *testing.T) {
			ran := 0
			for j := 3; j < len(users) && ran < 2; j += 11 {
				r := rand.New(rand.NewPCG(uint64(200+i), uint64(j)))
				first, ok := groundFor(t, c, intentByName(c, pair[0]), users[j], r)
				if !ok {
					continue
				}
				env := first.env
				for _, a := range first.g.Actions {
					if _, err := env.Call(a.Name, a.Arguments); err != nil {
						t.Fatalf("%s: %s: %v", pair[0], a.Name, err)
					}
				}
				used := func(id string) bool { return slices.Contains(first.g.Uses, id) }
				second, ok := intentByName(c, pair[1]).Ground(sim.GroundContext{Env: env, UserID: users[j], Rand: r, Used: used, UsedInTask: used})
				if !ok {
					continue
				}
				task := taskFor(t, first, ran)
				task.ID += "+" + pair[1]
				for k, v := range second.Facts {
					if old, clash := task.Scenario.Facts[k]; clash && old != v {
						k = "second_" + k
					}
					task.Scenario.Facts[k] = v
				}
				task.Scenario.Requests = append(task.Scenario.Requests, second.Request)
				task.Actions = append(task.Actions, second.Actions...)
				task.Outputs = append(task.Outputs, second.Outputs...)
				task.Forbidden = append(task.Forbidden, second.Forbidden...)
				ran++
				for _, withEmotions := range []bool{true, false} {
					traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: dom, Task: task, Agent: sim.Oracle{}, User: sim.ScriptedUser{},
						WithEmotions: withEmotions, Seed: uint64(j)})
					if err != nil {
						t.Fatal(err)
					}
					if !traj.Passed() {
						t.Errorf("%s (emotions %v): oracle termination %s\nreward_info %s\nlast %q", task.ID, withEmotions,
							traj.TerminationReason, traj.RewardInfo, traj.Messages[len(traj.Messages)-1].Content)
					}
				}
				if len(task.Forbidden) == 0 {
					continue
				}
				traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: dom, Task: task, Agent: sim.Careless{}, User: sim.ScriptedUser{},
					WithEmotions: true, Seed: uint64(j)})
				if err != nil {
					t.Fatal(err)
				}
				if traj.Passed() {
					t.Errorf("%s: careless passed a task with a forbidden write\nreward_info %s", task.ID, traj.RewardInfo)
				}
			}
			if ran == 0 {
				t.Errorf("no user to compose %v for", pair)
			}
		})
	}
}
