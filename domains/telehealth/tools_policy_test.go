package telehealth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"
)

// policyWords match text that states a policy answer or rule; no string in
// the tool code may contain one.
var policyWords = regexp.MustCompile(`(?i:must be \d|eligib|polic|not allowed|only when|licensed in the patient|24 hours|once per|approved by|interaction.*(refuse|cannot)|expired|faulty|prescriber must|transfer the (user|patient))`)

// TestTools_NoPolicy reads tools.go: none of its strings (errors,
// descriptions) may state a policy rule. The tools refuse only what the
// store's backend cannot do (see domains/README.md).
func TestTools_NoPolicy(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "tools.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(file, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
		}
		if m := policyWords.FindString(s); m != "" {
			t.Errorf("%s: string %q states a policy rule (%q)", fset.Position(lit.Pos()), s, m)
		}
		return true
	})
}
