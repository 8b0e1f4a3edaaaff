package table

import (
	"fmt"
	"regexp"
	"strings"
)

// CheckLaTeX is a small structural checker for the booktabs tables that
// Write gives in "latex": environments balance, every row has as many cells
// as the column spec, rows end with \\, and no special character is left
// unescaped outside math mode. It returns an error naming the first row
// that breaks a rule. Tests use it on every LaTeX output.
func CheckLaTeX(doc string) error {
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
