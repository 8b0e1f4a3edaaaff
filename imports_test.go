package emobench_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// importRule is what one package directory may import: project packages
// (directories relative to the module root, "" for the root package) and,
// when thirdParty is not nil, the only non-project, non-standard modules.
type importRule struct {
	project    []string
	thirdParty []string // nil: any; empty: the standard library only
}

// importRules encodes the table "Who may import whom" of ../shared/DESIGN.md.
// A subpackage follows its nearest listed ancestor. What the table does not
// name is written here as the smallest rule that holds today:
//   - domains/<d>/gen (a domain's data generator) imports what its domain
//     may, that domain, and tracer (whose Generate writes its tasks);
//   - export imports root types (and redact, which DESIGN.md says export
//     uses), never db, sim, ingest, analysis or reports;
//   - fixtures imports no project package; fixtures/gen (its generator)
//     only internal/atomicfile, the one writer of output files;
//   - tracer also imports analysis (the filter's criteria and funnel) and
//     reports/table (the audit's tables);
//   - workbench is the commands' library (what DESIGN.md gives cmd beyond
//     reading flags and printing): it joins db with ingest, sim, analysis
//     and reports (and tracer with tracer/sft: the user dependence a run stores, the export formats), and
//     never imports cmd;
//   - reports/table is reports' table writers: root and analysis types;
//   - tracer/sft is Tracer's SFT records and format writers: root types
//     and sim (tool schemas), never db (tracer reads the db for it);
//   - internal/cliargs is urfave/cli/v2 plumbing (argument normalisation,
//     usage errors, the version line) that knows no emobench command: the
//     root package (its usage errors are EREQUEST errors), urfave/cli/v2
//     and smetrics (suggestions) only;
//   - internal/atomicfile is the one writer of output files (temporary
//     file, sync, rename; only regular files replaced) and the naming of
//     file kinds: the standard library only; db, export, sim, tracer and
//     workbench write through it;
//   - internal/csvsafe is the CSV writer with formula-leading cells
//     quoted that export and reports/table share: the standard library
//     only;
//   - sim/domaintest is test support (the conformance suite every
//     domain's test runs): root types, sim and tracer (the audit and the
//     task files' freshness), and only _test.go files import it
//     (testOnly), so no domain's library code depends on tracer;
//   - tracer/gentasks is a program (the one generator of every domain's
//     task files, run by `go generate`): tracer, sim, root types and
//     domains/all (where it finds the domain by name);
//   - internal/chromiumtest is test support (a headless Chromium through
//     chromedp for the browser tests of reports and cmd/emobench): no
//     project package, chromedp only, and only _test.go files import it
//     (testOnly), so no library or command depends on chromedp.
var importRules = map[string]importRule{
	"":                {project: nil, thirdParty: []string{}},
	"ingest":          {project: []string{"", "redact"}},
	"sim":             {project: []string{"", "redact", "internal/atomicfile"}},
	"domains/*":       {project: []string{"", "sim"}},
	"domains/*/gen":   {project: []string{"", "sim", "domains/$1", "tracer"}},
	"domains/all":     {project: []string{"domains/*", "suites/*"}},
	"suites/*":        {project: []string{"", "sim"}},
	"tracer":          {project: []string{"", "sim", "db", "tracer/sft", "analysis", "reports/table", "internal/atomicfile"}},
	"tracer/sft":      {project: []string{"", "sim"}},
	"tracer/gentasks": {project: []string{"", "sim", "tracer", "domains/all"}},
	"sim/domaintest":  {project: []string{"", "sim", "tracer"}},
	"db":              {project: []string{"", "db/sqlcdb", "redact", "internal/atomicfile"}},
	"db/sqlcdb":       {project: nil},
	"redact":          {project: nil, thirdParty: []string{}},
	"analysis":        {project: []string{""}, thirdParty: []string{"gonum.org/v1/gonum"}},
	"reports":         {project: []string{"", "analysis", "reports/table"}, thirdParty: []string{"github.com/go-echarts/go-echarts/v2"}},
	"reports/table":   {project: []string{"", "analysis", "internal/csvsafe"}},
	"export":          {project: []string{"", "redact", "internal/atomicfile", "internal/csvsafe"}},
	"fixtures":        {project: nil},
	"fixtures/gen":    {project: []string{"internal/atomicfile"}},
	"workbench":       {project: []string{"", "db", "db/sqlcdb", "ingest", "sim", "domains/all", "analysis", "reports", "reports/table", "export", "redact", "tracer", "tracer/sft", "internal/atomicfile"}},
	"cmd/emobench":    {project: []string{"*"}},

	"internal/chromiumtest": {project: nil, thirdParty: []string{"github.com/chromedp"}},
	"internal/cliargs":      {project: []string{""}, thirdParty: []string{"github.com/urfave/cli/v2", "github.com/xrash/smetrics"}},
	"internal/atomicfile":   {project: nil, thirdParty: []string{}},
	"internal/csvsafe":      {project: nil, thirdParty: []string{}},
}

// testOnly are the packages that only _test.go files may import.
var testOnly = []string{"internal/chromiumtest", "sim/domaintest"}

// knownViolations are imports that break DESIGN.md's table today, each with
// why; the test fails when one is gone, so that it is removed from here.
var knownViolations = map[string]string{
	// DESIGN.md: domains/all imports "every domain; nothing else". Its
	// registry is typed by sim.Domain.
	"domains/all -> sim": "the registry's element type is sim.Domain",
}

func TestImportRules(t *testing.T) {
	module := modulePath(t)
	imports := packageImports(t, module)
	if len(imports) < 10 || imports["db"] == nil {
		t.Fatalf("found %d packages, want the project's (db, ingest, …): %v", len(imports), imports)
	}
	for _, v := range importViolations(imports, module) {
		t.Error(v)
	}
}

// importViolations checks imports (by package directory) against
// importRules and knownViolations, returning one message per broken rule.
func importViolations(imports map[string][]string, module string) []string {
	var out []string
	seen := map[string]bool{}
	for dir, imps := range imports {
		ruleKey, rule, groups, ok := findRule(dir)
		if !ok {
			out = append(out, "package "+strconv.Quote(dir)+" is in no rule of DESIGN.md's import table: add it there and to importRules")
			continue
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, module+"/") || imp == module {
				target := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
				if slices.Contains(testOnly, target) {
					out = append(out, dir+" imports "+strconv.Quote(target)+": test support, for _test.go files only")
					continue
				}
				if allowedProject(rule.project, target, groups) {
					continue
				}
				if key := dir + " -> " + target; knownViolations[key] != "" {
					seen[key] = true
					continue
				}
				out = append(out, dir+" (rule "+strconv.Quote(ruleKey)+") imports "+strconv.Quote(target)+": not allowed by DESIGN.md's import table")
				continue
			}
			if rule.thirdParty == nil || isStandard(imp) {
				continue
			}
			if !slices.ContainsFunc(rule.thirdParty, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
				allowed := "the standard library only"
				if len(rule.thirdParty) > 0 {
					allowed = "only " + strings.Join(rule.thirdParty, ", ") + " besides the standard library"
				}
				out = append(out, dir+" (rule "+strconv.Quote(ruleKey)+") imports "+imp+": "+allowed)
			}
		}
	}
	for key := range knownViolations {
		pkg, _, _ := strings.Cut(key, " -> ")
		if _, exists := imports[pkg]; exists && !seen[key] {
			out = append(out, "known violation "+strconv.Quote(key)+" no longer happens: remove it from knownViolations")
		}
	}
	slices.Sort(out)
	return out
}

func TestImportViolations(t *testing.T) {
	const m = "example.com/emo"
	imports := map[string][]string{
		"":                      {"fmt", "github.com/x/y"},                 // root: standard library only
		"analysis":              {m, m + "/db", "gonum.org/v1/gonum/stat"}, // db is never allowed
		"analysis/sub":          {"github.com/other/lib"},                  // follows analysis: gonum only
		"domains/retail":        {m, m + "/sim", m + "/domains/airline"},
		"domains/retail/gen":    {m + "/domains/retail", m + "/domains/airline"},
		"domains/all":           {m + "/domains/retail", m + "/domains/airline"}, // no sim: the known violation is gone
		"reports/table":         {m + "/analysis"},
		"cmd/emobench":          {m + "/db", m + "/sim", "github.com/urfave/cli/v2", m + "/internal/chromiumtest"},
		"internal/chromiumtest": {"github.com/chromedp/chromedp", m + "/db"},
		"newthing":              {"fmt"},
	}
	want := []string{
		`analysis (rule "analysis") imports "db": not allowed by DESIGN.md's import table`,
		`analysis/sub (rule "analysis") imports github.com/other/lib: only gonum.org/v1/gonum besides the standard library`,
		`cmd/emobench imports "internal/chromiumtest": test support, for _test.go files only`,
		`internal/chromiumtest (rule "internal/chromiumtest") imports "db": not allowed by DESIGN.md's import table`,
		`domains/retail (rule "domains/*") imports "domains/airline": not allowed by DESIGN.md's import table`,
		`domains/retail/gen (rule "domains/*/gen") imports "domains/airline": not allowed by DESIGN.md's import table`,
		`known violation "domains/all -> sim" no longer happens: remove it from knownViolations`,
		` (rule "") imports github.com/x/y: the standard library only`,
		`package "newthing" is in no rule of DESIGN.md's import table: add it there and to importRules`,
	}
	slices.Sort(want)
	got := importViolations(imports, m)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// findRule returns the rule of dir or of its nearest listed ancestor (an
// exact entry before a pattern), with the elements a pattern's "*" matched.
// Only the root package itself follows the root's rule.
func findRule(dir string) (key string, rule importRule, groups []string, ok bool) {
	for d := dir; d != "" || dir == ""; d = parentDir(d) {
		if r, found := importRules[d]; found {
			return d, r, nil, true
		}
		for pattern, r := range importRules {
			if m := globMatch(pattern, d); strings.Contains(pattern, "*") && m != nil {
				return pattern, r, m, true
			}
		}
		if d == "" {
			break
		}
	}
	return "", importRule{}, nil, false
}

func parentDir(d string) string {
	if p := path.Dir(d); p != "." {
		return p
	}
	return ""
}

// globMatch matches a pattern whose "*" stand for one path element each,
// returning the elements matched, or nil.
func globMatch(pattern, dir string) []string {
	p, d := strings.Split(pattern, "/"), strings.Split(dir, "/")
	if len(p) != len(d) {
		return nil
	}
	groups := []string{}
	for i := range p {
		switch {
		case p[i] == "*":
			groups = append(groups, d[i])
		case p[i] != d[i]:
			return nil
		}
	}
	return groups
}

func allowedProject(allowed []string, target string, groups []string) bool {
	for _, a := range allowed {
		if a == "*" {
			return true
		}
		for i, g := range groups {
			a = strings.ReplaceAll(a, "$"+strconv.Itoa(i+1), g)
		}
		if a == target || (strings.Contains(a, "*") && globMatch(a, target) != nil) {
			return true
		}
	}
	return false
}

// isStandard reports whether imp is a standard-library path: its first
// element has no dot.
func isStandard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// packageImports parses the imports of every non-test .go file, by
// package directory relative to the module root ("" for the root).
func packageImports(t *testing.T, module string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if dir == "." {
			dir = ""
		}
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			out[dir] = append(out[dir], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func modulePath(t *testing.T) string {
	t.Helper()
	f, err := os.Open("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

// DESIGN.md's table and importRules name the same packages.
func TestImportRules_CoverDesignTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "shared", "DESIGN.md"))
	if err != nil {
		t.Skipf("../shared/DESIGN.md not found (%v)", err)
	}
	_, table, ok := strings.Cut(string(data), "## Who may import whom")
	if !ok {
		t.Fatal("DESIGN.md has no section \"Who may import whom\"")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	cell := regexp.MustCompile("(?m)^\\| (?:root )?`([^`]+)`")
	placeholder := regexp.MustCompile(`<[a-z]+>`) // domains/<d>, suites/<s>
	for _, m := range cell.FindAllStringSubmatch(table, -1) {
		name := strings.TrimSuffix(placeholder.ReplaceAllString(m[1], "*"), "/")
		if name == "emobench" {
			name = ""
		}
		if _, ok := importRules[name]; !ok {
			t.Errorf("DESIGN.md's import table names %q, which importRules lacks", m[1])
		}
	}
}
