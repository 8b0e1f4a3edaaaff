package retail

import (
	"encoding/json"
	"strings"
	"testing"
)

// toolCase is a case of testdata/tools.json: a call of tool on the store
// (db: testDB, or "policy": policyDB) after prior calls, each succeeding.
// The result contains want, or the error contains wantErr and the state
// is unchanged; then reads follow, each result containing its want.
// breaks, if set, names the policy.md rule the call breaks: the tool must
// still make it, since following the policy is the agent's job.
type toolCase struct {
	Tool    string          `json:"tool"`
	Name    string          `json:"name"`
	Note    string          `json:"note"` // why the case is there; not read
	DB      string          `json:"db"`
	Breaks  string          `json:"breaks"`
	Args    json.RawMessage `json:"args"` // none: an empty argument text
	Prior   []call          `json:"prior"`
	Want    string          `json:"want"`
	WantErr string          `json:"want_error"`
	Then    []call          `json:"then"`
}

// call is a tool call and a substring of its result.
type call struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Want string          `json:"want"`
}

// TestTools runs the cases of testdata/tools.json. Every tool has an OK
// and an error case, and each policy.md rule the tools do not enforce
// that a refusal task relies on has a case that breaks it.
func TestTools(t *testing.T) {
	var cases []toolCase
	readJSON(t, "testdata/tools.json", &cases)
	seen := map[string][2]bool{}
	broken := map[string]bool{}
	for _, c := range cases {
		t.Run(c.Tool+"/"+c.Name, func(t *testing.T) {
			db := testDB
			if c.DB == "policy" {
				db = policyDB
			}
			env := newEnv(db(t))
			for _, p := range c.Prior {
				if _, err := env.Call(p.Tool, p.Args); err != nil {
					t.Fatalf("prior %s: %v", p.Tool, err)
				}
			}
			before := env.Hash()
			got, err := env.Call(c.Tool, c.Args)
			if c.WantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.WantErr) {
					t.Fatalf("error = %v, want one containing %q (result %q)", err, c.WantErr, got)
				}
				if after := env.Hash(); after != before {
					t.Errorf("a failed call changed the state")
				}
				return
			}
			if err != nil {
				t.Fatalf("error = %v, want none", err)
			}
			if !strings.Contains(got, c.Want) {
				t.Fatalf("result = %s, want one containing %s", got, c.Want)
			}
			if c.Breaks != "" && env.Hash() == before {
				t.Errorf("the call breaks the policy rule %q and succeeded, but did not change the state", c.Breaks)
			}
			for _, r := range c.Then {
				if got, err := env.Call(r.Tool, r.Args); err != nil || !strings.Contains(got, r.Want) {
					t.Errorf("then %s%s = %s, %v; want a result containing %s", r.Tool, r.Args, got, err, r.Want)
				}
			}
		})
		broken[c.Breaks] = true
		s := seen[c.Tool]
		s[0] = s[0] || c.WantErr == ""
		s[1] = s[1] || c.WantErr != ""
		seen[c.Tool] = s
	}
	for _, tool := range Tools() {
		if s := seen[tool.Name]; !s[0] || !s[1] {
			t.Errorf("tool %s: has OK case %v, error case %v; want both", tool.Name, s[0], s[1])
		}
	}
	for _, rule := range []string{"items change only to the same product", "refunds go to the original method or a gift card", "help only the verified user"} {
		if !broken[rule] {
			t.Errorf("no tool case breaks the policy rule %q", rule)
		}
	}
}
