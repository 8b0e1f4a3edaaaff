package db

import (
	"strconv"
	"testing"

	"github.com/emobench/emobench"
)

func TestPairFilter(t *testing.T) {
	t.Parallel()
	pair := func(domain string, i int) *emobench.Trajectory {
		return &emobench.Trajectory{Task: emobench.Task{Domain: domain, Key: strconv.Itoa(i / 10)}, Trial: i % 10}
	}
	f := newPairFilter()
	const n = 1_000_000
	for i := range n {
		f.add(pair("retail", i))
	}
	for i := range n {
		if !f.mayHold(pair("retail", i)) {
			t.Fatalf("pair %d added but not held", i)
		}
	}
	// Same keys and trials in another domain are other pairs: the false
	// positive rate stays near the 0.4% the filter's doc gives.
	fp := 0
	for i := range n {
		if f.mayHold(pair("airline", i)) {
			fp++
		}
	}
	t.Logf("false positive rate %.4f", float64(fp)/n)
	if rate := float64(fp) / n; rate > 0.008 {
		t.Errorf("false positive rate %.4f at %d pairs, want about 0.004", rate, n)
	}
}
