package reports

import (
	"strconv"
	"strings"

	"github.com/emobench/emobench/analysis"
)

// CommandLine writes the emobench stats command lines that captions name
// (Commands): the report's --run and --pool, and its bootstrap flags where
// Boot differs from Default, the stats commands' defaults.
type CommandLine struct {
	RunIDs        []int64
	Pool          bool
	Boot, Default analysis.BootstrapOptions
}

// Stats is "emobench stats SUB ARGS… [--run N]… [--pool]" with the
// bootstrap flags when bootstrapped is set.
func (l CommandLine) Stats(sub string, bootstrapped bool, args ...string) string {
	parts := append([]string{"emobench", "stats", sub}, args...)
	for _, id := range l.RunIDs {
		parts = append(parts, "--run", strconv.FormatInt(id, 10))
	}
	if l.Pool {
		parts = append(parts, "--pool")
	}
	if bootstrapped {
		d := l.Default
		if l.Boot.Resamples != d.Resamples {
			parts = append(parts, "--resamples", strconv.Itoa(l.Boot.Resamples))
		}
		if l.Boot.Seed != d.Seed {
			parts = append(parts, "--seed", strconv.FormatUint(l.Boot.Seed, 10))
		}
		if l.Boot.Level != d.Level {
			parts = append(parts, "--level", strconv.FormatFloat(l.Boot.Level, 'g', -1, 64))
		}
		if l.Boot.Method != d.Method {
			parts = append(parts, "--ci-method", l.Boot.Method)
		}
	}
	return strings.Join(parts, " ")
}

// ForUnit is l for the runs of one unit only.
func (l CommandLine) ForUnit(u analysis.Unit) CommandLine {
	l.RunIDs = u.RunIDs
	return l
}
