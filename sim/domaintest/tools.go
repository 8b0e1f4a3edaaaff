package domaintest

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolSchemas checks every tool's schema: a unique snake_case name, a
// description, and parameters that are a JSON object schema ("type":
// "object", "properties" an object of property schemas each with a type
// or an enum and a description (an enum may stand for it), every "required" name a property); and
// that the transfer tool is among them.
func (s *suite) toolSchemas(t *testing.T) {
	if len(s.tools) == 0 {
		t.Fatal("the domain has no tools")
	}
	seen := map[string]bool{}
	for _, tl := range s.tools {
		if !snakeCase.MatchString(tl.Name) {
			t.Errorf("tool %q: the name is not snake_case", tl.Name)
		}
		if seen[tl.Name] {
			t.Errorf("tool %s: two tools have this name", tl.Name)
		}
		seen[tl.Name] = true
		if strings.TrimSpace(tl.Description) == "" {
			t.Errorf("tool %s: no description", tl.Name)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tl.Parameters, &schema); err != nil {
			t.Errorf("tool %s: parameters are not a JSON object schema: %v", tl.Name, err)
			continue
		}
		if schema.Type != "object" || schema.Properties == nil {
			t.Errorf("tool %s: parameters have type %q and properties %v, want an object schema with properties", tl.Name, schema.Type, schema.Properties != nil)
		}
		for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
			var prop map[string]any
			if err := json.Unmarshal(schema.Properties[name], &prop); err != nil {
				t.Errorf("tool %s: property %s is not a JSON object: %v", tl.Name, name, err)
				continue
			}
			_, typed := prop["type"]
			_, enum := prop["enum"]
			_, anyOf := prop["anyOf"]
			if !typed && !enum && !anyOf {
				t.Errorf("tool %s: property %s has no type", tl.Name, name)
			}
			if d, _ := prop["description"].(string); strings.TrimSpace(d) == "" && !enum {
				t.Errorf("tool %s: property %s has no description", tl.Name, name)
			}
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("tool %s: required %q is not a property", tl.Name, r)
			}
		}
	}
	if tr := s.dom.TransferTool(); tr == "" || !seen[tr] {
		t.Errorf("the transfer tool %q is not among the tools", tr)
	}
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// policyPhrases match text that states a policy answer or rule: what
// every domain's tools_policy_test.go refused in tool code ("transfer
// the user" in lower case: a transfer tool's description may start
// "Transfer the user to a human agent"). A tool
// refuses only what the backend cannot do (domains/README.md); the agent
// must find the rule in the policy.
var policyPhrases = regexp.MustCompile(`(?i:must be \d|eligib|polic(y|ies)|after the (user|customer|patient) confirms|only when|only after|not allowed)|transfer the (user|customer|patient)`)

// notToolFiles are the template's files that are no tool code (see
// domains/README.md): the domain's declaration, the policy predicates
// and the catalog, which state the policy by design, and the generator
// of the data. policy_rules.go and grounders.go are the names two domains
// gave rules.go and ground.go before the template.
var notToolFiles = []string{"rules.go", "catalog.go", "ground.go", "alternatives.go", "generate.go", "policy_rules.go", "grounders.go"}

// toolTexts scans the string literals of the domain package's tool code
// (its non-test .go files in the current directory, which `go test` makes
// the package's, but for <name>.go and notToolFiles) and the tools'
// descriptions: none may state a policy rule (policyPhrases). It skips
// when the current directory is not the domain's package.
func (s *suite) toolTexts(t *testing.T) {
	for _, tl := range s.tools {
		if m := policyPhrases.FindString(tl.Description + " " + string(tl.Parameters)); m != "" {
			t.Errorf("tool %s: its description or parameters state a policy rule (%q)", tl.Name, m)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var scanned []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == s.dom.Name()+".go" || slices.Contains(notToolFiles, f) {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if file.Name.Name != s.dom.Name() {
			continue // another package's directory
		}
		scanned = append(scanned, f)
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			str, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			if m := policyPhrases.FindString(str); m != "" {
				t.Errorf("%s: string %q states a policy rule (%q): a tool refuses only what the backend cannot do", fset.Position(lit.Pos()), str, m)
			}
			return true
		})
	}
	if len(scanned) == 0 {
		wd, _ := os.Getwd()
		t.Skipf("%s holds no source of package %s: run the suite from the domain's own test to scan its tool code", wd, s.dom.Name())
	}
	t.Logf("scanned %s", strings.Join(scanned, ", "))
}

// badArguments calls every tool with arguments an agent may send by
// mistake, on a fresh environment each: malformed JSON, non-objects, an
// empty object, unknown names, each property of the wrong type or empty,
// and ids no row has. No call may panic; malformed JSON, a non-object and
// an object missing a required name must be errors.
func (s *suite) badArguments(t *testing.T) {
	for _, tl := range s.tools {
		var schema struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(tl.Parameters, &schema) // toolSchemas reports a bad one
		type bad struct {
			args    string
			wantErr bool
		}
		cases := []bad{{`{`, true}, {`[]`, true}, {`"x"`, true}, {`null`, false}, {`{"no_such_argument": 1}`, false}}
		cases = append(cases, bad{`{}`, len(schema.Required) > 0})
		for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
			for _, v := range []string{`""`, `"no_such_id_0000"`, `-1`, `0`, `1e308`, `true`, `null`, `[]`, `{}`, `[""]`, `[{"x":1}]`} {
				kv := map[string]json.RawMessage{name: json.RawMessage(v)}
				for _, r := range schema.Required {
					if r != name {
						kv[r] = json.RawMessage(`"no_such_id_0000"`)
					}
				}
				b, _ := json.Marshal(kv)
				cases = append(cases, bad{string(b), false})
			}
		}
		env := s.dom.NewEnvironment()
		for _, c := range cases {
			_, err, panicked := call(env, tl.Name, json.RawMessage(c.args))
			switch {
			case panicked:
				t.Errorf("%s: %v", describe(tl.Name, json.RawMessage(c.args)), err)
				env = s.dom.NewEnvironment()
			case c.wantErr && err == nil:
				t.Errorf("%s: no error", describe(tl.Name, json.RawMessage(c.args)))
			}
		}
	}
	if _, err, panicked := call(s.dom.NewEnvironment(), "no_such_tool", json.RawMessage(`{}`)); panicked || err == nil {
		t.Errorf("an unknown tool: error %v, panic %v; want an error", err, panicked)
	}
}
