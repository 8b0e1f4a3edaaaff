package emobench_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// flagInError matches a command-line flag's name ("--level") in a string.
var flagInError = regexp.MustCompile(`--[a-zA-Z]`)

// errorMakers are the calls whose string arguments become an error's
// message: fmt.Errorf, errors.New, emobench.Errorf (Errorf, unqualified,
// in the root package) and a package's own helpers named *errorf,
// *requestf or invalid*.
func errorMaker(call *ast.CallExpr) bool {
	var name, pkg string
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		name = fn.Name
	case *ast.SelectorExpr:
		name = fn.Sel.Name
		if id, ok := fn.X.(*ast.Ident); ok {
			pkg = id.Name
		}
	default:
		return false
	}
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, "errorf") || strings.HasSuffix(lower, "requestf") ||
		(pkg == "errors" && name == "New") || strings.HasPrefix(lower, "invalid")
}

// TestLibraryErrors_NameNoFlags checks STYLE.md rule 13: the libraries'
// error messages speak of values, never of a command line's flags, so a
// web UI can show them; cmd/emobench adds the flag's name where it wraps
// the error (fmt.Errorf("--level: %w", err)). It fails for every string
// literal given to an error-making call (fmt.Errorf, errors.New,
// emobench.Errorf, a package's *errorf, *requestf or invalid* helper) in a non-test
// file of sim, db, analysis, tracer or workbench that holds "--" and a
// letter.
func TestLibraryErrors_NameNoFlags(t *testing.T) {
	for _, dir := range []string{"sim", "db", "analysis", "tracer", "workbench"} {
		t.Run(dir, func(t *testing.T) {
			var found []string
			err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
					return err
				}
				fset := token.NewFileSet()
				f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
				if err != nil {
					return err
				}
				ast.Inspect(f, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || !errorMaker(call) {
						return true
					}
					for _, arg := range call.Args {
						ast.Inspect(arg, func(n ast.Node) bool {
							lit, ok := n.(*ast.BasicLit)
							if !ok || lit.Kind != token.STRING {
								return true
							}
							if s, err := strconv.Unquote(lit.Value); err == nil && flagInError.MatchString(s) {
								found = append(found, fset.Position(lit.Pos()).String()+": "+s)
							}
							return true
						})
					}
					return true
				})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(found)
			for _, f := range found {
				t.Errorf("an error names a flag (say the value; cmd adds the flag): %s", f)
			}
		})
	}
}
