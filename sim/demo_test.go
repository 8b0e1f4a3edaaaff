package sim_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench/sim"
)

func TestProgress_NilShowsNothing(t *testing.T) {
	t.Parallel()
	if p := sim.NewProgress(&bytes.Buffer{}, 0); p != nil {
		t.Fatalf("NewProgress(0) = %v, want nil", p)
	}
	var p *sim.Progress
	p.Show(sim.Tally{})
	p.Finish()
	var buf bytes.Buffer
	q := sim.NewProgress(&buf, 2)
	q.Show(sim.Tally{})
	q.Finish()
	if !strings.Contains(buf.String(), "episodes") {
		t.Errorf("progress wrote %q, want an episodes bar", buf.String())
	}
}

func TestDemoPlans_Empty(t *testing.T) {
	t.Parallel()
	plans, err := sim.DemoPlans(nil, time.Now)
	if err != nil || len(plans) != 0 {
		t.Errorf("DemoPlans(no domains) = %d plans, %v", len(plans), err)
	}
}
