package airline

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// callCase is one case of testdata/tools.json or testdata/policy.json:
// steps run in order on one fresh environment over the default database
// (GenerateDB(Seed), whose ids the cases name).
type callCase struct {
	Name string `json:"name"`
	// Breaks, if set, names the policy.md rule the case's calls break:
	// the tools must still make them, since following the policy is the
	// agent's job.
	Breaks string `json:"breaks"`
	// Methods are payment methods added to users' profiles before the
	// steps, by user id.
	Methods map[string][]PaymentMethod `json:"methods"`
	Steps   []callStep                 `json:"steps"`
}

// callStep is one call of a case. Args is sent as encoded, or as is when
// it is a JSON string (malformed arguments).
type callStep struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	// PolicyFor, if set, checks the call against the policy (checkWrite)
	// for this authenticated user instead of making it: Error is then the
	// policy's, and none means the policy allows the call.
	PolicyFor string `json:"policy_for"`
	Want      string `json:"want"`   // a substring of the result
	Absent    string `json:"absent"` // not a substring of the result
	Result    string `json:"result"` // the whole result
	Error     string `json:"error"`  // a substring of the error; the state must not change
}

func loadCases(t *testing.T, file string) []callCase {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []callCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return cases
}

// run runs c's steps on a fresh environment.
func (c callCase) run(t *testing.T) {
	env := newEnv(initialState())
	for userID, methods := range c.Methods {
		u, _ := env.State.Users.Edit(userID)
		for _, pm := range methods {
			u.PaymentMethods[pm.ID] = pm
		}
	}
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	for i, s := range c.Steps {
		args := s.Args
		var text string
		if json.Unmarshal(args, &text) == nil {
			args = json.RawMessage(text)
		}
		if s.PolicyFor != "" {
			err := env.State.checkWrite(s.PolicyFor, emobench.Action{Name: s.Tool, Arguments: args})
			if s.Error == "" && err != nil || s.Error != "" && (err == nil || !strings.Contains(err.Error(), s.Error)) {
				t.Errorf("step %d: policy for %s on %s(%s) = %v, want error %q", i+1, s.PolicyFor, s.Tool, args, err, s.Error)
			}
			continue
		}
		before := env.Hash()
		got, err := env.Call(s.Tool, args)
		changed := env.Hash() != before
		switch {
		case s.Error != "":
			if err == nil || !strings.Contains(err.Error(), s.Error) || changed {
				t.Errorf("step %d: %s(%s) = %q, %v (state changed %v), want an error containing %q and no change", i+1, s.Tool, args, got, err, changed, s.Error)
			}
		case err != nil:
			t.Errorf("step %d: %s(%s): %v", i+1, s.Tool, args, err)
		case !strings.Contains(got, s.Want), s.Absent != "" && strings.Contains(got, s.Absent), s.Result != "" && got != s.Result:
			t.Errorf("step %d: %s(%s) = %s, want it to contain %q, not %q, or to be %q", i+1, s.Tool, args, got, s.Want, s.Absent, s.Result)
		case changed != writes[s.Tool]:
			t.Errorf("step %d: %s changed the state: %v, want %v (the tool writes)", i+1, s.Tool, changed, writes[s.Tool])
		}
	}
}

// TestTools runs testdata/tools.json: each tool's results and errors, and
// the calls that break a policy rule and still succeed. Every tool has a
// case that succeeds and one that fails.
func TestTools(t *testing.T) {
	ok, bad := map[string]bool{}, map[string]bool{}
	for _, c := range loadCases(t, "testdata/tools.json") {
		t.Run(c.Name, c.run)
		for _, s := range c.Steps {
			ok[s.Tool] = ok[s.Tool] || s.Error == ""
			bad[s.Tool] = bad[s.Tool] || s.Error != ""
		}
	}
	for _, tl := range Tools() {
		if !ok[tl.Name] || !bad[tl.Name] {
			t.Errorf("tool %s: has a case that succeeds %v, one that fails %v; want both", tl.Name, ok[tl.Name], bad[tl.Name])
		}
	}
}

// TestTools_PolicyLeftToAgent checks that testdata/tools.json has, for
// every rule of policy.md the tools used to enforce, a case that breaks
// it with writes that succeed (TestTools runs them).
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
		"at most one certificate per reservation",
		"compensation only for gold, insured or business",
		"compensation only for a delayed or cancelled flight",
		"$50 per passenger for a delay",
	}
	broken := map[string]bool{}
	for _, c := range loadCases(t, "testdata/tools.json") {
		if c.Breaks == "" {
			continue
		}
		broken[c.Breaks] = true
		if !slices.ContainsFunc(c.Steps, func(s callStep) bool { return s.Error == "" && s.PolicyFor == "" && isWrite(s.Tool) }) {
			t.Errorf("%s breaks %q: want a write that succeeds", c.Name, c.Breaks)
		}
	}
	for _, r := range rules {
		if !broken[r] {
			t.Errorf("no tool case breaks the policy rule %q", r)
		}
	}
}

func isWrite(tool string) bool {
	return slices.ContainsFunc(Tools(), func(tl sim.Tool[DB]) bool { return tl.Name == tool && tl.Writes })
}

// policyNames are the helpers of rules.go: the policy as the catalog
// applies it. Tool code must not use them.
var policyNames = []string{"MaxPassengers", "DelayCompensation", "CancelCompensation", "freeBags", "FreeBags", "NonfreeBags",
	"bookedWithin24h", "eligible", "policyAllowsCancel", "compensationDue", "policyChecks", "checkWrite", "flown"}

// policyWords match text that states a policy answer or rule: more than
// the conformance suite's words, which every domain shares.
var policyWords = regexp.MustCompile(`(?i:must be \d|eligib|polic|allowance|within 24|basic economy|cannot be removed|at most (one|three|five))|transfer the user`)

// TestTools_NoPolicy reads tools.go and tools.json: the tool code must not
// call the policy helpers, and none of its strings (errors, descriptions)
// may state a policy rule or tell the agent to transfer.
func TestTools_NoPolicy(t *testing.T) {
	if m := policyWords.FindString(string(toolsJSON)); m != "" {
		t.Errorf("tools.json states a policy rule (%q)", m)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "tools.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(file, func(n ast.Node) bool {
		var name string
		switch n := n.(type) {
		case *ast.Ident: // a selector's name too
			name = n.Name
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && policyWords.MatchString(s) {
				t.Errorf("%s: string %q states a policy rule (%q)", fset.Position(n.Pos()), s, policyWords.FindString(s))
			}
		}
		if slices.Contains(policyNames, name) {
			t.Errorf("%s: tool code uses the policy helper %s", fset.Position(n.Pos()), name)
		}
		return true
	})
}
