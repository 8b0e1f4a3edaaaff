package telecom

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
// the same task, the intent grounded and applied first. None yet: every
// telecom intent applies to the initial database.
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
	if got, want := len(c.Users(d.NewEnvironment())), NumCustomers; got != want {
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

// groundFor grounds intent for userID over a copy of db, after its prelude
// intent when it has one; false when the user has nothing it applies to.
func groundFor(t *testing.T, c *sim.Catalog, db *DB, in sim.Intent, userID string, r *rand.Rand) (grounded, bool) {
	t.Helper()
	env := sim.NewStateEnv(sim.CopyState(db), Tools())
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
	users := c.Users(sim.NewStateEnv(db, Tools()))
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
				gr, ok := groundFor(t, c, db, in, users[j], r)
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
	env := sim.NewStateEnv(sim.CopyState(gr.env.State), Tools())
	results := []string{gr.authRes}
	nWrites := 0
	for _, a := range g.Actions {
		if writes[a.Name] {
			nWrites++
			if err := c.CheckPolicy(env, gr.userID, a); err != nil {
				t.Errorf("%s: gold %s%s: %v", who, a.Name, a.Arguments, err)
			}
			for _, v := range scalars(exemptless(c, a)) {
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
		for _, f := range g.Forbidden {
			var v *PolicyViolation
			if err := c.CheckPolicy(env, gr.userID, f); !errors.As(err, &v) {
				t.Errorf("%s: forbidden %s%s passes the policy (%v)", who, f.Name, f.Arguments, err)
			}
			try := sim.NewStateEnv(sim.CopyState(env.State), Tools())
			before := try.Hash()
			_, err := try.Call(f.Name, f.Arguments)
			// The carrier's systems carry out every forbidden write: the
			// policy alone forbids it.
			if err != nil || try.Hash() == before {
				t.Errorf("%s: forbidden %s%s: the tools refuse it (error %v)", who, f.Name, f.Arguments, err)
			}
		}
	}
	if len(g.Forbidden) > 0 && in.Kind != sim.IntentForbidden {
		t.Errorf("%s: %s intent with forbidden writes", who, in.Kind)
	}
	if last := in.Path[len(in.Path)-1]; last == ToolApplyCredit && len(g.Outputs) != 1 {
		t.Errorf("%s: a credit without its amount as the output: %q", who, g.Outputs)
	}
	// The request's first word names the write careless makes: the
	// forbidden one for a refusal, none for a read or a transfer.
	tool, named := sim.RequestedWrite(g.Request.Text, toolSchemas())
	switch {
	case in.Kind == sim.IntentForbidden && (!named || tool.Name != g.Forbidden[0].Name):
		t.Errorf("%s: request %q names write %q, want %s", who, g.Request.Text, tool.Name, g.Forbidden[0].Name)
	case (in.Kind == sim.IntentRead || in.Kind == sim.IntentTransfer) && named:
		t.Errorf("%s: %s request %q names write %s", who, in.Kind, g.Request.Text, tool.Name)
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
		ID: fmt.Sprintf("telecom-catalog-%s-%d", gr.intent.Name, j), Domain: Name, Split: emobench.SplitTest,
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
	users := c.Users(sim.NewStateEnv(db, Tools()))
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
			for j := 0; j < len(users) && ran < perIntent; j += 7 {
				gr, ok := groundFor(t, c, db, in, users[j], rand.New(rand.NewPCG(uint64(100+i), uint64(j))))
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
	users := c.Users(sim.NewStateEnv(db, Tools()))
	pairs := [][2]string{
		{"troubleshoot_then_ticket", "outage_credit"},
		{"change_plan_next_cycle", "add_feature"},
		{"payment_arrangement", "enable_autopay"},
		{"bill_amount", "waive_late_fee"},
		{"pay_and_reactivate", "add_feature"},
		{"current_plan", "change_plan_today"},
		{"add_feature", "port_out_transfer"},
		{"enable_autopay", "second_late_fee_waiver"},
	}
	for i, pair := range pairs {
		t.Run(pair[0]+"+"+pair[1], func(t *testing.T) {
			ran := 0
			for j := 3; j < len(users) && ran < 2; j += 11 {
				r := rand.New(rand.NewPCG(uint64(200+i), uint64(j)))
				first, ok := groundFor(t, c, db, intentByName(c, pair[0]), users[j], r)
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
				second, ok := intentByName(c, pair[1]).Ground(sim.GroundContext{Env: env, UserID: users[j], Rand: r, Used: used})
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

// exemptless returns a's arguments without the catalog's ExemptArgs and
// the tool's enum arguments, which Tracer's facts reachable check skips.
func exemptless(c *sim.Catalog, a emobench.Action) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(a.Arguments, &m) != nil {
		return a.Arguments
	}
	for _, k := range c.ExemptArgs {
		delete(m, k)
	}
	for _, ts := range toolSchemas() {
		var schema struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		if ts.Name == a.Name && json.Unmarshal(ts.Parameters, &schema) == nil {
			for k, p := range schema.Properties {
				if len(p.Enum) > 0 {
					delete(m, k)
				}
			}
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// toolSchemas returns the schemas of the tools.
func toolSchemas() []sim.ToolSchema {
	var out []sim.ToolSchema
	for _, t := range Tools() {
		out = append(out, t.ToolSchema)
	}
	return out
}

// TestPhrases checks how the grounders say ids and names in a customer's
// words.
func TestPhrases(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{issuePhrase("cannot send texts"), "trouble sending texts"},
		{issuePhrase("no signal"), "no signal"},
		{featurePhrase("Mobile Hotspot 15GB"), "mobile hotspot 15GB"},
		{featurePhrase("HD Video Streaming"), "HD video streaming"},
		{featurePhrase("International Roaming"), "international roaming"},
		{chargePhrase("Unlimited Plus plan, 503-555-0101"), "Unlimited Plus plan charge for 503-555-0101"},
		{chargePhrase("Device installment, Pixel 8"), "device installment for my Pixel 8"},
		{chargePhrase("Senior discount"), "Senior discount charge"},
		{(&PaymentMethod{Kind: "credit_card", Brand: "mastercard", LastFour: "2230"}).Describe(), "Mastercard ending in 2230"},
		{(&PaymentMethod{Kind: "credit_card", Brand: "visa", LastFour: "0001"}).Describe(), "Visa card ending in 0001"},
		{(&PaymentMethod{Kind: "bank_account", Brand: "wells fargo", LastFour: "9853"}).Describe(), "Wells Fargo account ending in 9853"},
		{dayName("2025-06-03"), "June 3"},
		{dayName("June"), "June"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestSymptomsOf checks which problems an outage of each service causes:
// every symptom is a troubleshooting issue, and an outage of all service
// causes each of them.
func TestSymptomsOf(t *testing.T) {
	for service, want := range map[string][]string{
		"data":  {"slow data"},
		"voice": {"dropped calls", "cannot send texts"},
		"all":   issues,
	} {
		if got := symptomsOf(service); !slices.Equal(got, want) {
			t.Errorf("symptomsOf(%q) = %v, want %v", service, got, want)
		}
	}
}
