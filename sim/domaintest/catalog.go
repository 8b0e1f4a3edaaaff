package domaintest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// catalog checks the catalog's shape: it validates against the tools
// (Catalog.Validate), declares intents of every kind with unique names
// and at least three templates that name no tool, lists distinct users,
// and authenticates the first with a call that replays.
func (s *suite) catalog(t *testing.T) {
	s.needCatalog(t)
	c := s.cat
	if err := c.Validate(s.tools); err != nil {
		t.Fatal(err)
	}
	kinds := map[sim.IntentKind]int{}
	names := map[string]bool{}
	for _, in := range c.Intents {
		kinds[in.Kind]++
		if names[in.Name] {
			t.Errorf("intent %s: two intents have this name", in.Name)
		}
		names[in.Name] = true
		if len(in.Templates) < 3 {
			t.Errorf("intent %s: %d templates, want at least 3", in.Name, len(in.Templates))
		}
		for _, tmpl := range in.Templates {
			for _, tl := range s.tools {
				if strings.Contains(tmpl, tl.Name) {
					t.Errorf("intent %s: template names the tool %s: %q", in.Name, tl.Name, tmpl)
				}
			}
		}
		for _, f := range in.Families {
			if _, ok := emobench.FindFamily(f); !ok {
				t.Errorf("intent %s: family %q is not in the emotion taxonomy", in.Name, f)
			}
		}
	}
	for _, k := range []sim.IntentKind{sim.IntentWrite, sim.IntentRead, sim.IntentForbidden, sim.IntentTransfer} {
		if kinds[k] == 0 {
			t.Errorf("no intent of kind %s", k)
		}
	}
	users := c.Users(s.dom.NewEnvironment())
	if len(users) == 0 {
		t.Fatal("the catalog lists no users")
	}
	if u := slices.Compact(slices.Sorted(slices.Values(users))); len(u) != len(users) {
		t.Errorf("Users lists %d ids, %d distinct", len(users), len(u))
	}
	env := s.dom.NewEnvironment()
	auth, facts := c.Authenticate(env, users[0], rand.New(rand.NewPCG(1, 2)))
	if _, err := env.Call(auth.Name, auth.Arguments); err != nil {
		t.Errorf("authenticate %s: %s: %v", users[0], describe(auth.Name, auth.Arguments), err)
	}
	if !slices.Contains(c.Openers, auth.Name) {
		t.Errorf("authenticate %s calls %s, which is no opener %v", users[0], auth.Name, c.Openers)
	}
	if len(facts) == 0 {
		t.Errorf("authenticate %s gives the user no facts", users[0])
	}
}

// grounded is one intent grounded for a user: the authentication, the
// grounding and the environment it was grounded on (authentication and
// any prelude applied).
type grounded struct {
	intent  sim.Intent
	userID  string
	auth    emobench.Action
	facts   map[string]string // the authentication's facts, then the grounding's
	calls   []emobench.Action // the authentication and prelude calls
	results []string          // their results
	g       sim.Grounding
	env     sim.Environment
	prelude string // the intent applied first, "" for none
}

// groundings grounds each intent for a spread of users, once per suite:
// every 20th user and, until an intent has three, every user, up to 12
// (under
// -short, the first user it grounds for). An intent that grounds for
// nobody on the initial state is tried after each write intent's gold
// actions for a few users (a prelude: "return the order again" needs a
// return first). It fails t for a grounder that changes the environment
// it reads and for an intent that never grounds.
func (s *suite) groundings(t *testing.T) [][]grounded {
	t.Helper()
	s.groundOnce.Do(func() { s.grounded = s.groundAll(t) })
	return s.grounded
}

func (s *suite) groundAll(t *testing.T) [][]grounded {
	t.Helper()
	step, least, most := 20, 3, 12
	if testing.Short() {
		step, least, most = 1<<30, 1, 1
	}
	c := s.cat
	users := c.Users(s.dom.NewEnvironment())
	out := make([][]grounded, len(c.Intents))
	for i, in := range c.Intents {
		for j, u := range users {
			if len(out[i]) >= most {
				break
			}
			if len(out[i]) >= least && j%step != 0 {
				continue
			}
			r := rand.New(rand.NewPCG(uint64(i), uint64(j)))
			if gr, ok := s.ground(t, in, u, "", r); ok {
				out[i] = append(out[i], gr)
			}
		}
		if len(out[i]) > 0 {
			continue
		}
		// A prelude: an intent of the same task applied first.
		for j, u := range users[:min(len(users), 60)] {
			for _, pre := range c.Intents {
				if pre.Kind != sim.IntentWrite || pre.Name == in.Name || len(out[i]) >= least {
					continue
				}
				r := rand.New(rand.NewPCG(uint64(i), uint64(1000+j)))
				if gr, ok := s.ground(t, in, u, pre.Name, r); ok {
					out[i] = append(out[i], gr)
				}
			}
		}
		if len(out[i]) == 0 {
			t.Errorf("intent %s grounds for none of %d users, nor after any write intent", in.Name, len(users))
		}
	}
	return out
}

// ground authenticates userID on a fresh environment, applies the gold
// actions of the intent prelude (when not ""), and grounds in.
func (s *suite) ground(t *testing.T, in sim.Intent, userID, prelude string, r *rand.Rand) (grounded, bool) {
	t.Helper()
	c := s.cat
	env := s.dom.NewEnvironment()
	auth, facts := c.Authenticate(env, userID, r)
	res, err := env.Call(auth.Name, auth.Arguments)
	if err != nil {
		t.Fatalf("authenticate %s: %s: %v", userID, describe(auth.Name, auth.Arguments), err)
	}
	gr := grounded{intent: in, userID: userID, auth: auth, facts: maps.Clone(facts), calls: []emobench.Action{auth}, results: []string{res}, env: env, prelude: prelude}
	if gr.facts == nil {
		gr.facts = map[string]string{}
	}
	never := func(string) bool { return false }
	if prelude != "" {
		pi := slices.IndexFunc(c.Intents, func(x sim.Intent) bool { return x.Name == prelude })
		pg, ok := c.Intents[pi].Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: never})
		if !ok {
			return grounded{}, false
		}
		for _, a := range pg.Actions {
			res, err := env.Call(a.Name, a.Arguments)
			if err != nil {
				return grounded{}, false // the prelude's own check reports it
			}
			gr.calls, gr.results = append(gr.calls, a), append(gr.results, res)
		}
		maps.Copy(gr.facts, pg.Facts)
	}
	before := env.Hash()
	g, ok := in.Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: never})
	if env.Hash() != before {
		t.Fatalf("intent %s: grounding for %s changed the environment", in.Name, userID)
	}
	if !ok {
		return grounded{}, false
	}
	maps.Copy(gr.facts, g.Facts)
	gr.g = g
	return gr, true
}

// intents grounds every intent for many users (groundings) and checks
// each instance (checkGrounded).
func (s *suite) intents(t *testing.T) {
	s.needCatalog(t)
	all := s.groundings(t)
	n := 0
	for _, grs := range all {
		for _, gr := range grs {
			n++
			s.checkGrounded(t, gr)
		}
	}
	t.Logf("%d groundings of %d intents", n, len(s.cat.Intents))
}

var factKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkGrounded checks one grounded intent: the gold actions walk the
// intent's path with only reads besides and replay without a tool error;
// each gold write passes CheckPolicy where it is made and passes only
// values the user knows (a fact) or an earlier read returned (Tracer's
// facts reachable check, tracer.CheckFactsReachable); the intent's kind holds (a write intent
// writes; a read intent only reads and has outputs; a forbidden intent
// only reads and its forbidden writes fail CheckPolicy; a transfer ends
// with the transfer tool); the request has text and its tools are
// called; every template renders; facts have snake_case keys and values.
func (s *suite) checkGrounded(t *testing.T, gr grounded) {
	t.Helper()
	c, in, g := s.cat, gr.intent, gr.g
	who := in.Name + "/" + gr.userID
	if gr.prelude != "" {
		who += " after " + gr.prelude
	}
	transfer := s.dom.TransferTool()
	var names []string
	for _, a := range g.Actions {
		names = append(names, a.Name)
	}
	if err := followsPath(names, in.Path, func(n string) bool { return s.writes[n] || n == transfer }); err != nil {
		t.Errorf("%s: %v", who, err)
	}
	for _, tmpl := range in.Templates {
		if _, err := sim.RenderTemplate(tmpl, g.Slots); err != nil {
			t.Errorf("%s: %v", who, err)
		}
	}
	for k, v := range g.Facts {
		if !factKey.MatchString(k) || v == "" {
			t.Errorf("%s: fact %q = %q: want a snake_case key and a value", who, k, v)
		}
	}
	if strings.TrimSpace(g.Request.Text) == "" {
		t.Errorf("%s: the request has no text", who)
	}
	for _, tool := range g.Request.Tools {
		if !slices.Contains(names, tool) {
			t.Errorf("%s: request tool %s is no gold action", who, tool)
		}
	}
	env := gr.env
	calls, results := slices.Clone(gr.calls), slices.Clone(gr.results)
	nWrites := 0
	for i, a := range g.Actions {
		if s.writes[a.Name] {
			nWrites++
			if err := c.CheckPolicy(env, gr.userID, a); err != nil {
				t.Errorf("%s: gold write %s breaks the policy: %v", who, describe(a.Name, a.Arguments), err)
			}
		}
		res, err := env.Call(a.Name, a.Arguments)
		if err != nil {
			t.Errorf("%s: gold action %d %s: %v", who, i, describe(a.Name, a.Arguments), err)
		}
		calls, results = append(calls, a), append(results, res)
	}
	if err := tracer.CheckFactsReachable(s.tools, c, calls, results, gr.facts); err != nil {
		t.Errorf("%s: %v", who, err)
	}
	switch in.Kind {
	case sim.IntentWrite:
		if nWrites == 0 {
			t.Errorf("%s: a write intent without a gold write", who)
		}
	case sim.IntentRead:
		if nWrites > 0 || len(g.Outputs) == 0 {
			t.Errorf("%s: a read intent with %d gold writes and outputs %q", who, nWrites, g.Outputs)
		}
	case sim.IntentForbidden:
		if nWrites > 0 || len(g.Forbidden) == 0 {
			t.Errorf("%s: a forbidden intent with %d gold writes and %d forbidden", who, nWrites, len(g.Forbidden))
		}
	case sim.IntentTransfer:
		if nWrites > 0 || len(names) == 0 || names[len(names)-1] != transfer {
			t.Errorf("%s: a transfer intent calls %v", who, names)
		}
	}
	if len(g.Forbidden) > 0 && in.Kind != sim.IntentForbidden && in.Kind != sim.IntentTransfer {
		t.Errorf("%s: a %s intent with forbidden writes", who, in.Kind)
	}
	for _, f := range g.Forbidden {
		if slices.Contains(names, f.Name) && slices.ContainsFunc(g.Actions, func(a emobench.Action) bool {
			return a.Name == f.Name && string(a.Arguments) == string(f.Arguments)
		}) {
			t.Errorf("%s: forbidden %s is a gold action", who, describe(f.Name, f.Arguments))
		}
		if err := c.CheckPolicy(env, gr.userID, f); err == nil {
			t.Errorf("%s: forbidden %s passes the policy", who, describe(f.Name, f.Arguments))
		}
	}
}

// followsPath reports whether the calls names walk path: each step in
// order (a step may repeat, once per entity), with only calls that are
// not off-path (writes and the transfer) in between.
func followsPath(names, path []string, offPath func(string) bool) error {
	i := 0
	for _, n := range names {
		switch {
		case i < len(path) && n == path[i]:
			i++
		case i > 0 && n == path[i-1]:
		case offPath(n):
			return fmt.Errorf("call %s is off the path %v", n, path)
		}
	}
	if i < len(path) {
		return fmt.Errorf("the calls %v do not reach step %d (%s) of the path %v", names, i, path[i], path)
	}
	return nil
}

// intentEpisodes runs, for each intent, single-intent tasks as Tracer
// builds them (authentication, then the grounding; an intent that needs
// a prelude is left to the embedded tasks): the oracle with the scripted
// user passes in both conditions and careless fails one with forbidden
// writes.
func (s *suite) intentEpisodes(t *testing.T) {
	s.needCatalog(t)
	per := 2
	if testing.Short() {
		per = 1
	}
	for _, grs := range s.groundings(t) {
		ran := 0
		for k, gr := range grs {
			if gr.prelude != "" || ran >= per {
				continue
			}
			ran++
			task := s.taskFor(t, gr, k)
			for _, withEmotions := range []bool{true, false} {
				traj := s.episode(t, task, sim.Oracle{}, withEmotions, uint64(k+1))
				if want := s.wantTermination(task); !traj.Passed() || traj.TerminationReason != want {
					t.Errorf("%s (emotions %v): oracle ends %s, passed %v; want %s and a pass\nreward_info %s\nlast %q",
						task.ID, withEmotions, traj.TerminationReason, traj.Passed(), want, traj.RewardInfo, lastMessage(traj))
				}
			}
			if len(task.Forbidden) > 0 {
				if traj := s.episode(t, task, sim.Careless{}, true, uint64(k+1)); traj.Passed() {
					t.Errorf("%s: careless passed a task with forbidden writes\nreward_info %s", task.ID, traj.RewardInfo)
				}
			}
		}
	}
}

// taskFor assembles the single-intent task of gr as Tracer does:
// authentication then the gold actions, the instruction from template j,
// an emotion profile chosen by j among the intent's families.
func (s *suite) taskFor(t *testing.T, gr grounded, j int) *emobench.TaskSpec {
	t.Helper()
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
	outputs := gr.g.Outputs
	if outputs == nil {
		outputs = []string{}
	}
	task := &emobench.TaskSpec{
		ID: fmt.Sprintf("%s-conformance-%s-%d", s.dom.Name(), gr.intent.Name, j), Domain: s.dom.Name(), Split: emobench.SplitTest,
		UserID: gr.userID, Instruction: instr, Intents: []string{gr.intent.Name},
		Scenario: emobench.Scenario{Facts: maps.Clone(gr.facts), Requests: []emobench.Request{gr.g.Request}},
		Emotion: emobench.EmotionProfile{Family: fam.Name, Leaf: fam.Leaves[j%len(fam.Leaves)],
			Politeness: dim("politeness", 1), Urgency: dim("urgency", 2), Trust: dim("trust", 3)},
		Actions:   append([]emobench.Action{gr.auth}, gr.g.Actions...),
		Outputs:   outputs,
		Forbidden: gr.g.Forbidden,
		Advice:    gr.g.Advice,
		Traits:    gr.g.Traits,
	}
	if err := task.Validate(); err != nil {
		t.Fatalf("%s: %v", task.ID, err)
	}
	return task
}
