package airline

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
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

// TestCheckWrite tests each policy predicate with one allowed and one
// violating call.
func TestCheckWrite(t *testing.T) {
	f := newFixtures(t)
	db := f.db
	pick := func(desc string, ok func(*Reservation, *User) bool) *Reservation {
		return f.reservation(desc, func(r *Reservation, u *User) bool {
			return f.pristine(r) && r.Status == ReservationActive && !db.flown(r) && ok(r, u)
		})
	}
	recent := pick("booked within 24h", func(r *Reservation, _ *User) bool {
		return bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled)
	})
	plain := pick("not cancellable", func(r *Reservation, _ *User) bool {
		return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled) && r.Insurance == "no"
	})
	insured := pick("insured", func(r *Reservation, _ *User) bool {
		return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled) && r.Insurance == "yes"
	})
	basic := pick("basic economy, one flight", func(r *Reservation, _ *User) bool {
		return r.Cabin == CabinBasicEconomy && len(r.Flights) == 1
	})
	economy := pick("economy", func(r *Reservation, _ *User) bool { return r.Cabin == CabinEconomy })
	flown := f.reservation("with a flown flight", func(r *Reservation, _ *User) bool {
		return r.Status == ReservationActive && db.flown(r)
	})
	delayed := f.reservation("eligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !r.Compensated && eligible(u, r) && db.hasStatus(r, StatusDelayed) && !db.hasStatus(r, StatusCancelled)
	})
	ineligible := f.reservation("ineligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !eligible(u, r) && db.hasStatus(r, StatusDelayed)
	})
	owner := func(r *Reservation) *User { return get(&db.Users, r.UserID) }
	other := func(id string) string { return f.user("other than "+id, func(u *User) bool { return u.ID != id }).ID }
	method := func(u *User, source string) string {
		for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
			if u.PaymentMethods[id].Source == source {
				return id
			}
		}
		return ""
	}
	certUser := f.user("with a certificate and a credit card", func(u *User) bool {
		return method(u, SourceCertificate) != "" && method(u, SourceCreditCard) != ""
	})
	twoCerts := f.user("with two certificates", func(u *User) bool {
		n := 0
		for _, pm := range u.PaymentMethods {
			if pm.Source == SourceCertificate {
				n++
			}
		}
		return n >= 2
	})
	cancel := func(r *Reservation, reason string) emobench.Action { return cancelAction(r, reason) }
	bags := func(r *Reservation, total, nonfree int) emobench.Action {
		return act(ToolUpdateReservationBaggages, map[string]any{"reservation_id": r.ID, "total_baggages": total, "nonfree_baggages": nonfree})
	}
	nextDay := func(r *Reservation) []FlightRef {
		s := r.Flights[0]
		for _, d := range flightDates {
			if d > s.Date {
				return []FlightRef{{s.FlightNumber, d}}
			}
		}
		return []FlightRef{{s.FlightNumber, s.Date}}
	}
	flights := func(r *Reservation, cabin string, fl []FlightRef, payment string) emobench.Action {
		kwargs := map[string]any{"reservation_id": r.ID, "cabin": cabin, "flights": fl}
		if payment != "" {
			kwargs["payment_id"] = payment
		}
		return act(ToolUpdateReservationFlights, kwargs)
	}
	passengers := func(r *Reservation, ps []Passenger) emobench.Action {
		return act(ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": ps})
	}
	renamed := slices.Clone(economy.Passengers)
	renamed[0].FirstName = "Zed"
	seg := f.flight(StatusAvailable)
	book := func(u *User, pax int, total, nonfree int, payments ...string) emobench.Action {
		ps := make([]Passenger, pax)
		for i := range ps {
			ps[i] = Passenger{FirstName: "P", LastName: fmt.Sprint("N", i), DOB: "1990-01-01"}
		}
		var pay []map[string]any
		for _, p := range payments {
			pay = append(pay, map[string]any{"payment_id": p, "amount": 1})
		}
		return act(ToolBookReservation, map[string]any{"user_id": u.ID, "origin": seg.Origin, "destination": seg.Destination, "trip_type": TripOneWay,
			"cabin": CabinEconomy, "flights": []FlightRef{{seg.FlightNumber, seg.Date}}, "passengers": ps, "payment_methods": pay,
			"total_baggages": total, "nonfree_baggages": nonfree, "insurance": "no"})
	}
	free := func(u *User, cabin string, pax int) int { return FreeBags(u.Membership, cabin) * pax }
	certs := []string{}
	for _, id := range slices.Sorted(maps.Keys(twoCerts.PaymentMethods)) {
		if twoCerts.PaymentMethods[id].Source == SourceCertificate {
			certs = append(certs, id)
		}
	}
	ecoUser := owner(economy)
	ecoFree := FreeBags(ecoUser.Membership, economy.Cabin) * len(economy.Passengers)
	ecoTotal := max(economy.TotalBaggages, ecoFree) + 1
	tests := []struct {
		name, user string
		action     emobench.Action
		wantErr    string // "" means allowed
	}{
		{"cancel within 24 hours", recent.UserID, cancel(recent, ReasonChangeOfPlan), ""},
		{"cancel another user's reservation", plain.UserID, cancel(recent, ReasonChangeOfPlan), "authenticated user"},
		{"cancel without a condition", plain.UserID, cancel(plain, ReasonChangeOfPlan), "more than 24 hours"},
		{"cancel claiming an airline cancellation", plain.UserID, cancel(plain, ReasonAirlineCancelled), "no flight"},
		{"cancel insured for health", insured.UserID, cancel(insured, ReasonHealth), ""},
		{"cancel insured for a change of plan", insured.UserID, cancel(insured, ReasonChangeOfPlan), "insured for a health or weather"},
		{"cancel flown", flown.UserID, cancel(flown, ReasonOther), "has been flown"},
		{"change basic economy cabin, same flights", basic.UserID, flights(basic, CabinEconomy, refs(basic.Flights), method(owner(basic), SourceCreditCard)), ""},
		{"change basic economy flights", basic.UserID, flights(basic, CabinBasicEconomy, nextDay(basic), method(owner(basic), SourceCreditCard)), "basic economy"},
		{"change flights of a flown reservation", flown.UserID, flights(flown, flown.Cabin, refs(flown.Flights), ""), "has been flown"},
		{"rename a passenger", economy.UserID, passengers(economy, renamed), ""},
		{"drop a passenger", economy.UserID, passengers(economy, renamed[:len(renamed)-1]), "number cannot change"},
		{"add a bag, nonfree by the table", economy.UserID, bags(economy, ecoTotal, ecoTotal-ecoFree), ""},
		{"add a bag, wrong nonfree", economy.UserID, bags(economy, ecoTotal, ecoTotal-ecoFree+1), "beyond the allowance"},
		{"remove a bag", economy.UserID, bags(economy, economy.TotalBaggages-1, 0), "never removed"},
		{"book within the limits", certUser.ID, book(certUser, 2, free(certUser, CabinEconomy, 2), 0, method(certUser, SourceCertificate), method(certUser, SourceCreditCard)), ""},
		{"book six passengers", certUser.ID, book(certUser, 6, 0, 0, method(certUser, SourceCreditCard)), "1 to 5 passengers"},
		{"book with two certificates", twoCerts.ID, book(twoCerts, 1, 0, 0, certs[0], certs[1]), "at most 1 certificate"},
		{"book with a method of another user", certUser.ID, book(certUser, 1, 0, 0, "credit_card_0000000"), "not in the profile"},
		{"book, wrong nonfree bags", certUser.ID, book(certUser, 1, free(certUser, CabinEconomy, 1)+1, 0), "beyond the allowance"},
		{"book for another user", other(certUser.ID), book(certUser, 1, 0, 0, method(certUser, SourceCreditCard)), "authenticated user"},
		{"certificate due", delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": DelayCompensation * len(delayed.Passengers)}), ""},
		{"certificate of another amount", delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": CancelCompensation * len(delayed.Passengers)}), "not"},
		{"certificate not due", ineligible.UserID, act(ToolSendCertificate, map[string]any{"user_id": ineligible.UserID, "reservation_id": ineligible.ID, "amount": DelayCompensation * len(ineligible.Passengers)}), "no compensation is due"},
		{"a read", plain.UserID, getReservation(plain), ""},
		{"the transfer", plain.UserID, act(ToolTransfer, map[string]any{"summary": "x"}), ""},
	}
	for _, tt := range tests {
		if tt.action.Name == "" {
			continue
		}
		err := db.checkWrite(tt.user, tt.action)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: checkWrite = %v, want allowed", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: checkWrite = %v, want an error with %q", tt.name, err, tt.wantErr)
		}
	}
	// On a copy: a change paid with a certificate, two credit cards or four
	// gift cards on a booking, and a second certificate for one
	// reservation break the policy.
	c := cloneDB(t, db)
	eu := get(&c.Users, economy.UserID)
	amount := 500
	for i, source := range []string{SourceCertificate, SourceCreditCard, SourceGiftCard, SourceGiftCard, SourceGiftCard, SourceGiftCard} {
		id := fmt.Sprintf("%s_%07d", source, 9_000_000+i)
		eu.PaymentMethods[id] = PaymentMethod{ID: id, Source: source, Amount: &amount}
	}
	cert := fmt.Sprintf("%s_%07d", SourceCertificate, 9_000_000)
	if err := c.checkWrite(eu.ID, flights(economy, CabinBusiness, refs(economy.Flights), cert)); err == nil || !strings.Contains(err.Error(), "travel certificate") {
		t.Errorf("change paid with a certificate: checkWrite = %v", err)
	}
	cards := []string{method(eu, SourceCreditCard), fmt.Sprintf("%s_%07d", SourceCreditCard, 9_000_001)}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, cards...)); err == nil || !strings.Contains(err.Error(), "at most 1 credit card") {
		t.Errorf("booking paid with two credit cards: checkWrite = %v", err)
	}
	var gifts []string
	for i := 2; i < 6; i++ {
		gifts = append(gifts, fmt.Sprintf("%s_%07d", SourceGiftCard, 9_000_000+i))
	}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, gifts[:3]...)); err != nil {
		t.Errorf("booking paid with three gift cards: checkWrite = %v, want allowed", err)
	}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, gifts...)); err == nil || !strings.Contains(err.Error(), "at most 3 gift cards") {
		t.Errorf("booking paid with four gift cards: checkWrite = %v", err)
	}
	edit(&c.Reservations, delayed.ID).Compensated = true
	if err := c.checkWrite(delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": DelayCompensation * len(delayed.Passengers)})); err == nil || !strings.Contains(err.Error(), "at most one certificate") {
		t.Errorf("second certificate: checkWrite = %v", err)
	}
	if err := db.checkWrite(plain.UserID, emobench.Action{Name: ToolCancelReservation, Arguments: json.RawMessage(`{`)}); err == nil {
		t.Error("malformed arguments pass the policy")
	}
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

// TestCatalog_GroundMalformed grounds every intent for a user whose
// reservations have no flights or passengers, and for an unknown user and
// a foreign environment: no grounder panics, and none grounds.
func TestCatalog_GroundMalformed(t *testing.T) {
	db := initialState()
	u := get(&db.Users, db.Users.Keys()[0])
	for _, id := range u.Reservations {
		r := edit(&db.Reservations, id)
		r.Flights, r.Passengers = nil, nil
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, in := range Catalog().Intents {
		for _, g := range []sim.GroundContext{
			{Env: newEnv(db), UserID: "nobody_0000", Rand: rng},
			{Env: sim.NewStateEnv(&struct{}{}, nil), UserID: u.ID, Rand: rng},
		} {
			if _, ok := in.Ground(g); ok {
				t.Errorf("%s grounded for %s in a malformed environment", in.Name, g.UserID)
			}
		}
		gr, ok := in.Ground(sim.GroundContext{Env: newEnv(db), UserID: u.ID, Rand: rng})
		for _, id := range gr.Uses {
			if slices.Contains(u.Reservations, id) {
				t.Errorf("%s grounded on reservation %s, which has no flights (ok %v)", in.Name, id, ok)
			}
		}
	}
}
