package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// Issue 8, item 3: what is suspicious is said, not computed silently.

// stats balance gives middle_wins with its p-value: one verdict in the text
// formats ("not significant" when p ≥ 0.05), middle_wins_p in json and csv.
func TestStatsBalance_MiddleWinsP(t *testing.T) {
	dbPath := ingestStats(t, nil, "balance.json")
	var shares []float64
	var passed []bool
	for _, b := range balanceTrajectories {
		if b.calls+b.followUps > 0 {
			shares = append(shares, float64(b.calls)/float64(b.calls+b.followUps))
			passed = append(passed, b.passed)
		}
	}
	// The p-value itself is checked by hand in analysis
	// (TestBalanceRegression_MiddleWinsP); here the command must carry it.
	fit, err := analysis.BalanceRegression(shares, passed)
	if err != nil {
		t.Fatal(err)
	}
	if fit.MiddleWinsP < 0.05 {
		t.Fatalf("balance.json: p = %v, want a fit that is not significant", fit.MiddleWinsP)
	}

	rows := jsonObjects(t, "--db", dbPath, "stats", "balance", "--part", "regression")
	if len(rows) != 3 {
		t.Fatalf("rows = %v, want 3 terms", rows)
	}
	if got, want := rows[2]["middle_wins"], fit.Interior; got != want {
		t.Errorf("middle_wins = %v, want %v", got, want)
	}
	checkNums(t, "share^2", rows[2], map[string]float64{"middle_wins_p": fit.MiddleWinsP})
	checkNums(t, "share", rows[1], map[string]float64{"middle_wins_p": math.NaN()})

	want := fmt.Sprintf("not significant (p = %.4f)", fit.MiddleWinsP)
	for _, format := range []string{"table", "markdown"} {
		out := mustRun(t, "--db", dbPath, "stats", "balance", "--part", "regression", "--format", format)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimSuffix(last, " |"), want) {
			t.Errorf("--format %s: share^2 row %q, want it to end in %q", format, last, want)
		}
	}
	csv := mustRun(t, "--db", dbPath, "stats", "balance", "--part", "regression", "--format", "csv")
	if head := strings.SplitN(csv, "\n", 2)[0]; !strings.HasSuffix(head, ",middle_wins,middle_wins_p") {
		t.Errorf("csv header %q, want it to end in middle_wins,middle_wins_p", head)
	}
}

func TestMiddleWinsText(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{0.0123, "yes (p = 0.0123)"},
		{0.05, "not significant (p = 0.0500)"},
		{0.9370, "not significant (p = 0.9370)"},
	} {
		if got := middleWinsText(analysis.BalanceFit{MiddleWinsP: tt.p}); got != tt.want {
			t.Errorf("p %v: %q, want %q", tt.p, got, tt.want)
		}
	}
}
