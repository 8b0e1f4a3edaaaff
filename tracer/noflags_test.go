package tracer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Library errors speak of values, never of a command's flags (issue 22):
// no string literal given to an error constructor in tracer or tracer/sft
// holds a flag name such as --domain.
func TestErrors_NameNoFlag(t *testing.T) {
	t.Parallel()
	flag := regexp.MustCompile(`--[a-z]`)
	makers := map[string]bool{"fmt.Errorf": true, "errors.New": true, "emobench.Errorf": true, "optionErrorf": true}
	files, _ := filepath.Glob("*.go")
	sft, _ := filepath.Glob(filepath.Join("sft", "*.go"))
	checked := 0
	for _, path := range append(files, sft...) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok {
					name = x.Name + "." + fn.Sel.Name
				}
			}
			if !makers[name] {
				return true
			}
			checked++
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING && flag.MatchString(lit.Value) {
					t.Errorf("%s: %s(%s) names a flag", path, name, lit.Value)
				}
			}
			return true
		})
	}
	if checked < 50 {
		t.Fatalf("checked %d error constructors, want the package's (at least 50)", checked)
	}
}
