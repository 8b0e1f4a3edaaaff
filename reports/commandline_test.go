package reports

import (
	"testing"

	"github.com/emobench/emobench/analysis"
)

// CommandLine names the report's runs and pool, and the bootstrap flags
// only where they differ from the defaults.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	def := analysis.BootstrapOptions{Resamples: 2000, Level: 0.95, Seed: 1, Method: analysis.MethodPercentile}
	l := CommandLine{RunIDs: []int64{3, 5}, Pool: true, Boot: def, Default: def}
	if got, want := l.Stats("gap", false), "emobench stats gap --run 3 --run 5 --pool"; got != want {
		t.Errorf("Stats = %q, want %q", got, want)
	}
	l.Boot.Resamples, l.Boot.Level, l.Boot.Method = 200, 0.9, analysis.MethodBCa
	want := "emobench stats passk --ci pm --run 3 --run 5 --pool --resamples 200 --level 0.9 --ci-method bca"
	if got := l.Stats("passk", true, "--ci", "pm"); got != want {
		t.Errorf("Stats = %q, want %q", got, want)
	}
	u := CommandLine{Default: def, Boot: def}.ForUnit(analysis.Unit{RunIDs: []int64{7}})
	if got, want := u.Stats("balance", true, "--part", "bins"), "emobench stats balance --part bins --run 7"; got != want {
		t.Errorf("ForUnit(7).Stats = %q, want %q", got, want)
	}
}
