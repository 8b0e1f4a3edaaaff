package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkLaTeX is a small structural checker for the booktabs tables the
// stats commands write: environments balance, every row has as many cells
// as the column spec, rows end with \\, and no special character is left
// unescaped outside math mode.
func checkLaTeX(doc string) error {
	if strings.Count(doc, `\begin{tabular}`) != 1 || strings.Count(doc, `\end{tabular}`) != 1 {
		return fmt.Errorf("want one tabular environment")
	}
	spec := regexp.MustCompile(`\\begin\{tabular\}\{([lrc]+)\}`).FindStringSubmatch(doc)
	if spec == nil {
		return fmt.Errorf("no column spec")
	}
	cols := len(spec[1])
	for _, rule := range []string{`\toprule`, `\midrule`, `\bottomrule`} {
		if strings.Count(doc, rule) != 1 {
			return fmt.Errorf("want one %s", rule)
		}
	}
	body := doc[strings.Index(doc, `\toprule`)+len(`\toprule`) : strings.Index(doc, `\bottomrule`)]
	for i, line := range strings.Split(strings.TrimSpace(body), "\n") {
		line = strings.TrimSpace(line)
		if line == `\midrule` || line == "" {
			continue
		}
		if !strings.HasSuffix(line, `\\`) {
			return fmt.Errorf("row %d does not end with \\\\: %q", i, line)
		}
		text := strings.ReplaceAll(strings.TrimSuffix(line, `\\`), `\$`, "DOLLAR") // an escaped $ opens no math
		outsideMath := regexp.MustCompile(`\$[^$]*\$`).ReplaceAllString(text, "")
		if n := strings.Count(strings.ReplaceAll(outsideMath, `\&`, ""), "&") + 1; n != cols {
			return fmt.Errorf("row %d has %d cells, want %d: %q", i, n, cols, line)
		}
		for _, ch := range []string{"_", "%", "#"} {
			if strings.Count(outsideMath, ch) != strings.Count(outsideMath, `\`+ch) {
				return fmt.Errorf("row %d has an unescaped %s: %q", i, ch, line)
			}
		}
	}
	return nil
}

func TestCheckLaTeX_CatchesErrors(t *testing.T) {
	good := "\\begin{tabular}{lr}\n\\toprule\na & b \\\\\n\\midrule\nx\\_y & $1 \\pm 2$ \\\\\n\\bottomrule\n\\end{tabular}\n"
	if err := checkLaTeX(good); err != nil {
		t.Fatalf("good table refused: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, `x\_y`, "x_y", 1),
		strings.Replace(good, ` & $1`, ` $1`, 1),
		strings.Replace(good, `\bottomrule`, "", 1),
	} {
		if checkLaTeX(bad) == nil {
			t.Errorf("bad table accepted:\n%s", bad)
		}
	}
}

// Every stats command's LaTeX output passes the checker.
func TestStats_LaTeXIsValid(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "tex.db")
	fixtureDB(t, dbPath)
	for _, args := range [][]string{
		{"stats", "passk", "--by", "emotion_family"},
		{"stats", "passk", "--ci", "pm"},
		{"stats", "passk", "--ci", "brackets"},
		{"stats", "emotions", "--resamples", "200"},
		{"stats", "emotions", "--resamples", "200", "--ci", "brackets"},
		{"stats", "gap", "--by", "trust"},
	} {
		out := mustRun(t, append(append([]string{"--db", dbPath}, args...), "--format", "latex")...)
		if err := checkLaTeX(out); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
