package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports"
	"github.com/emobench/emobench/workbench"
)

// The report's strict table holds the numbers of the command its caption
// names, emobench stats passk --strict, row by row, per run and per pool:
// on the τ²-bench fixture whose reward_basis leaves out failing checks
// (strict below gated: 0.25 against 0.75 at k = 1, see
// TestStatsPassK_Strict) beside a τ-bench run with no checks (strict equal
// to gated).
func TestReport_StrictEqualsStatsPassKStrict(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "strict.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join("testdata", "strict", "tau2-reward-basis.json"))
	path := filepath.Join(t.TempDir(), "m-retail-with-emotions.json")
	data, err := json.Marshal([]any{overlapRecord(0, 0, "anger", true, 1, 0, false), overlapRecord(0, 1, "anger", false, 1, 0, false),
		overlapRecord(1, 0, "fear", true, 2, 1, false), overlapRecord(1, 1, "fear", true, 0, 1, false)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", "--model", "m", "--user-model", "u", "--domain", "retail", path)
	store := openTestStore(t, dbPath)
	for _, pool := range []bool{false, true} {
		t.Run(fmt.Sprintf("pool=%v", pool), func(t *testing.T) {
			rep, err := buildReport(t.Context(), store, workbench.DefaultBootstrap, pool)
			if err != nil {
				t.Fatal(err)
			}
			strict := rep.Input.Strict
			want := "emobench stats passk --strict"
			if pool {
				want += " --pool"
			}
			if strict.Command != want {
				t.Fatalf("strict table command %q, want %q", strict.Command, want)
			}
			var page bytes.Buffer
			if err := reports.Render(&page, rep.Input); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(page.String(), "Numbers: "+want+".") || !strings.Contains(page.String(), "<h2>Strict pass^k beside gated</h2>") {
				t.Errorf("the page has no strict table whose caption names %q", want)
			}
			rows := commandJSON(t, dbPath, strict.Command)
			sameCount(t, "strict", len(strict.Rows), len(strict.Rows), len(rows))
			below := 0
			for i, r := range strict.Rows {
				what := fmt.Sprintf("strict %s k=%d", r.Unit, r.K)
				if unitIDOf(t, rows[i]) != r.RunID || int(num(t, rows[i], "k")) != r.K || int(num(t, rows[i], "tasks")) != r.Tasks ||
					int(num(t, rows[i], "demoted")) != r.Demoted {
					t.Errorf("%s: %+v, command row %v", what, r, rows[i])
				}
				sameNum(t, what, r.PassHatK, rows[i], "pass_hat_k")
				sameNum(t, what, r.StrictPassHatK, rows[i], "strict_pass_hat_k")
				sameNum(t, what, r.Delta, rows[i], "strict_delta")
				if r.StrictPassHatK < r.PassHatK {
					below++
					if cell := fmt.Sprintf(`<td class="num">%.3f</td><td class="num">%.3f</td>`, r.PassHatK, r.StrictPassHatK); !strings.Contains(page.String(), cell) {
						t.Errorf("%s: the page has no cells %s", what, cell)
					}
				}
			}
			if below != 2 { // the τ²-bench run at k = 1 and 2
				t.Errorf("%d rows have strict below gated, want 2", below)
			}
		})
	}
}
