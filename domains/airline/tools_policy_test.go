package airline

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestTools_PolicyLeftToAgent checks that toolCases has, for every rule of
// policy.md the tools used to enforce, a call that breaks it; TestTools
// then checks that each such call succeeds and changes the state.
func TestTools_PolicyLeftToAgent(t *testing.T) {
	rules := []string{
		"cancellation conditions",
		"insurance covers health or weather",
		"the reason must be the user's real one",
		"a flown reservation is transferred",
		"basic economy flights cannot be changed",
		"checked bags beyond the allowance cost $40",
		"bags may be added, never removed",
		"at most five passengers",
		"at most one travel certificate",
		"compensation only for gold, insured or business",
		"compensation only for a delayed or cancelled flight",
		"$50 per passenger for a delay",
	}
	broken := map[string]int{}
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	for _, c := range toolCases(t) {
		if c.breaks == "" {
			continue
		}
		broken[c.breaks]++
		if c.wantErr != "" || !writes[c.tool] {
			t.Errorf("%s/%s breaks %q: want a write that succeeds", c.tool, c.name, c.breaks)
		}
	}
	for _, r := range rules {
		if broken[r] == 0 {
			t.Errorf("no tool case breaks the policy rule %q", r)
		}
	}
}

// TestTools_BackendRefusals checks what a backend refuses that needs a
// prepared state: a cancelled reservation cannot be cancelled or changed
// again, and a flight without seats cannot take passengers. It also checks
// that a second certificate for one reservation, which the policy forbids,
// is still sent.
func TestTools_BackendRefusals(t *testing.T) {
	f := newFixtures(t)
	r := f.reservation("active, one-way direct economy on an available flight, with a credit card", func(r *Reservation, u *User) bool {
		return f.pristine(r) && r.Cabin == CabinEconomy && len(r.Flights) == 1 && r.TripType == TripOneWay && count(u, SourceCreditCard) > 0 &&
			f.db.segmentStatus(r.Flights[0]) == StatusAvailable
	})
	card := f.method(get(&f.db.Users, r.UserID), SourceCreditCard)
	call := func(env *sim.StateEnv[DB], tool string, args map[string]any) (string, error) {
		t.Helper()
		raw, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Call(tool, raw)
	}
	refused := func(env *sim.StateEnv[DB], tool string, args map[string]any, want string) {
		t.Helper()
		before := env.Hash()
		if _, err := call(env, tool, args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s(%v) error = %v, want one containing %q", tool, args, err, want)
		}
		if env.Hash() != before {
			t.Errorf("%s: a refused call changed the state", tool)
		}
	}

	env := sim.NewStateEnv(initialState(), Tools())
	if _, err := call(env, ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonChangeOfPlan}); err != nil {
		t.Fatal(err)
	}
	refused(env, ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonOther}, "reservation "+r.ID+" is already cancelled")
	refused(env, ToolUpdateReservationBaggages, map[string]any{"reservation_id": r.ID, "total_baggages": r.TotalBaggages + 1, "nonfree_baggages": r.NonfreeBaggages}, "reservation "+r.ID+" is cancelled")
	refused(env, ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": CabinBusiness, "flights": refs(r.Flights), "payment_id": card.ID}, "reservation "+r.ID+" is cancelled")
	refused(env, ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": []Passenger{{"Nova", "Lind", "1990-02-03"}}}, "reservation "+r.ID+" is cancelled")

	env = sim.NewStateEnv(initialState(), Tools())
	s := r.Flights[0]
	edit(&env.State.Flights, s.FlightNumber).Dates[s.Date].AvailableSeats.Business = len(r.Passengers) - 1
	refused(env, ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": CabinBusiness, "flights": refs(r.Flights), "payment_id": card.ID}, "business seats left")

	env = sim.NewStateEnv(initialState(), Tools())
	args := map[string]any{"user_id": r.UserID, "reservation_id": r.ID, "amount": 50}
	for i := range 2 {
		if _, err := call(env, ToolSendCertificate, args); err != nil {
			t.Fatalf("certificate %d: %v", i+1, err)
		}
	}
	if got, want := count(get(&env.State.Users, r.UserID), SourceCertificate), count(get(&f.db.Users, r.UserID), SourceCertificate)+2; got != want {
		t.Errorf("certificates = %d, want %d", got, want)
	}
}

// policyNames are the helpers of rules.go: the policy as the catalog
// applies it. Tool code must not use them.
var policyNames = []string{"MaxPassengers", "DelayCompensation", "CancelCompensation", "freeBags", "FreeBags", "NonfreeBags",
	"bookedWithin24h", "eligible", "policyAllowsCancel", "compensationDue", "policyAllowsWrite", "checkWrite", "flown"}

// policyWords match text that states a policy answer or rule; no string in
// the tool code may contain one.
var policyWords = regexp.MustCompile(`(?i:must be \d|eligib|polic|allowance|within 24|basic economy|cannot be removed|at most (one|three|five))|transfer the user`)

// TestTools_NoPolicy reads tools.go: it must not call the policy helpers,
// and none of its strings (errors, descriptions) may state a policy rule
// or tell the agent to transfer.
func TestTools_NoPolicy(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "tools.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			for _, p := range policyNames {
				if n.Name == p {
					t.Errorf("%s: tool code uses the policy helper %s", fset.Position(n.Pos()), p)
				}
			}
		case *ast.SelectorExpr:
			for _, p := range policyNames {
				if n.Sel.Name == p {
					t.Errorf("%s: tool code uses the policy helper %s", fset.Position(n.Pos()), p)
				}
			}
			return false
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(n.Pos()), err)
			}
			if m := policyWords.FindString(s); m != "" {
				t.Errorf("%s: string %q states a policy rule (%q)", fset.Position(n.Pos()), s, m)
			}
		}
		return true
	})
}

// TestRefusals_Bite checks the embedded refusal tasks: the gold makes no
// forbidden write (a mixed task makes allowed ones), and each forbidden write, made after the gold, is
// accepted by the tools and changes the database, so an agent that makes
// it fails the task's database check.
func TestRefusals_Bite(t *testing.T) {
	tasks := testTasks(t)
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	n := 0
	for _, task := range tasks {
		fs := task.Forbidden
		if len(fs) == 0 {
			continue
		}
		n++
		env := sim.NewStateEnv(initialState(), Tools())
		for _, a := range task.Actions {
			// A mixed task writes what the policy allows, never a
			// forbidden write.
			if writes[a.Name] && slices.ContainsFunc(fs, func(f emobench.Action) bool { return sim.ForbiddenMatch(f, a) }) {
				t.Errorf("task %s: refusal gold makes the forbidden %s", task.ID, a.Name)
			}
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("task %s: gold %s: %v", task.ID, a.Name, err)
			}
		}
		for _, f := range fs {
			before := env.Hash()
			if _, err := env.Call(f.Name, f.Arguments); err != nil || env.Hash() == before {
				t.Errorf("task %s: forbidden %s%s: error %v, state changed %v; want it made", task.ID, f.Name, f.Arguments, err, env.Hash() != before)
			}
		}
	}
	if n < 6 {
		t.Errorf("refusal tasks = %d, want at least 6", n)
	}
	t.Logf("%d refusal tasks of %d", n, len(tasks))
}
