package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr(v float64) *float64 { return &v }

func TestFilterStage_Boundaries(t *testing.T) {
	x := 1.5
	bound := FilterCriteria{MinReward: 1, MaxUserDependence: &x}
	tests := []struct {
		name string
		t    FunnelTrajectory
		c    FilterCriteria
		want FunnelStage
	}{
		{"reward exactly min", FunnelTrajectory{Reward: ptr(1), Evaluated: true}, FilterCriteria{MinReward: 1}, StageKept},
		{"reward within tolerance", FunnelTrajectory{Reward: ptr(1 - 1e-7), Evaluated: true}, FilterCriteria{MinReward: 1}, StageKept},
		{"reward just below min", FunnelTrajectory{Reward: ptr(0.999), Evaluated: true}, FilterCriteria{MinReward: 1}, DroppedFailed},
		{"partial reward at a lower min", FunnelTrajectory{Reward: ptr(0.5), Evaluated: true}, FilterCriteria{MinReward: 0.5}, StageKept},
		{"no reward", FunnelTrajectory{Evaluated: true}, FilterCriteria{MinReward: 0}, DroppedFailed},
		{"not evaluated", FunnelTrajectory{Reward: ptr(1)}, FilterCriteria{MinReward: 1}, DroppedFailed},
		{"abandoned dropped", FunnelTrajectory{Reward: ptr(1), Evaluated: true, Abandoned: true}, FilterCriteria{MinReward: 1}, DroppedAbandoned},
		{"abandoned kept by flag", FunnelTrajectory{Reward: ptr(1), Evaluated: true, Abandoned: true}, FilterCriteria{MinReward: 1, KeepAbandoned: true}, StageKept},
		{"dependence exactly X", FunnelTrajectory{Reward: ptr(1), Evaluated: true, UserTurnsPerFact: ptr(1.5)}, bound, StageKept},
		{"dependence just above X", FunnelTrajectory{Reward: ptr(1), Evaluated: true, UserTurnsPerFact: ptr(1.5000001)}, bound, DroppedDependent},
		{"dependence unknown under a bound", FunnelTrajectory{Reward: ptr(1), Evaluated: true}, bound, DroppedDependent},
		{"dependence unknown without a bound", FunnelTrajectory{Reward: ptr(1), Evaluated: true}, FilterCriteria{MinReward: 1}, StageKept},
		{"failed before abandoned", FunnelTrajectory{Reward: ptr(0), Evaluated: true, Abandoned: true}, FilterCriteria{MinReward: 1}, DroppedFailed},
		{"test split dropped first", FunnelTrajectory{Reward: ptr(0), Evaluated: true, TestSplit: true}, FilterCriteria{MinReward: 1}, DroppedTest},
		{"test split kept by flag", FunnelTrajectory{Reward: ptr(1), Evaluated: true, TestSplit: true}, FilterCriteria{MinReward: 1, AllowTestTasks: true}, StageKept},
	}
	for _, tt := range tests {
		if got := FilterStage(tt.t, tt.c); got != tt.want {
			t.Errorf("%s: stage %d, want %d", tt.name, got, tt.want)
		}
	}
}

// funnelFixture has 10 trajectories over 2 domains; the expected counts
// below are counted by hand.
func funnelFixture() []FunnelTrajectory {
	pass, fail := ptr(1), ptr(0)
	return []FunnelTrajectory{
		// retail/anger: tasks r1, r2; 4 trajectories.
		{ID: 1, Domain: "retail", Family: "anger", TaskKey: "r1", Reward: pass, Evaluated: true, UserTurnsPerFact: ptr(1)},
		{ID: 2, Domain: "retail", Family: "anger", TaskKey: "r1", Reward: pass, Evaluated: true, Abandoned: true, UserTurnsPerFact: ptr(1)},
		{ID: 3, Domain: "retail", Family: "anger", TaskKey: "r2", Reward: fail, Evaluated: true, UserTurnsPerFact: ptr(1)},
		{ID: 4, Domain: "retail", Family: "anger", TaskKey: "r2", Reward: pass, Evaluated: true, UserTurnsPerFact: ptr(3)},
		// retail/none: task r1 without emotions; 2 trajectories.
		{ID: 5, Domain: "retail", Family: "none", TaskKey: "r1", Reward: pass, Evaluated: true, UserTurnsPerFact: ptr(2)},
		{ID: 6, Domain: "retail", Family: "none", TaskKey: "r1", Reward: pass, Evaluated: true, UserTurnsPerFact: ptr(2.0001)},
		// airline/fear: tasks a1, a2, a3; 4 trajectories, one imported (unknown dependence).
		{ID: 7, Domain: "airline", Family: "fear", TaskKey: "a1", Reward: pass, Evaluated: true},
		{ID: 8, Domain: "airline", Family: "fear", TaskKey: "a2", Reward: pass, Evaluated: false, UserTurnsPerFact: ptr(1)},
		{ID: 9, Domain: "airline", Family: "fear", TaskKey: "a3", Reward: pass, Evaluated: true, UserTurnsPerFact: ptr(0.5)},
		{ID: 10, Domain: "airline", Family: "fear", TaskKey: "a3", Reward: ptr(0.5), Evaluated: true, UserTurnsPerFact: ptr(0.5)},
	}
}

func TestCountFunnel_Fixture(t *testing.T) {
	x := 2.0
	f := CountFunnel(funnelFixture(), FilterCriteria{MinReward: 1, MaxUserDependence: &x}, nil)
	want := []FunnelRow{
		// a1 unknown dependence (dropped under the bound), a2 not evaluated, a3 one pass and one 0.5.
		{Domain: "airline", Family: "fear", Generated: 3, Collected: 4, Passed: 2, NotAbandoned: 2, WithinDependence: 1, Kept: 1, DependenceUnknown: 1},
		// 1 kept; 2 abandoned; 3 failed; 4 dependence 3 > 2.
		{Domain: "retail", Family: "anger", Generated: 2, Collected: 4, Passed: 3, NotAbandoned: 2, WithinDependence: 1, Kept: 1},
		// 5 exactly 2 kept; 6 just above.
		{Domain: "retail", Family: "none", Generated: 1, Collected: 2, Passed: 2, NotAbandoned: 2, WithinDependence: 1, Kept: 1},
	}
	if diff := cmp.Diff(want, f.Rows); diff != "" {
		t.Fatalf("rows (-want +got):\n%s", diff)
	}
	// Generated total: distinct (domain, task) = a1 a2 a3 r1 r2.
	wantTotal := FunnelRow{Generated: 5, Collected: 10, Passed: 7, NotAbandoned: 6, WithinDependence: 3, Kept: 3, DependenceUnknown: 1}
	if diff := cmp.Diff(wantTotal, f.Total); diff != "" {
		t.Fatalf("total (-want +got):\n%s", diff)
	}
	if got, want := f.Kept, []int64{1, 5, 9}; !slices.Equal(got, want) {
		t.Fatalf("kept = %v, want %v", got, want)
	}
	fams := f.KeptFamilies()
	if diff := cmp.Diff([]FamilyCount{{"anger", 1}, {"fear", 1}, {"none", 1}}, fams); diff != "" {
		t.Fatalf("kept families (-want +got):\n%s", diff)
	}
}

func TestCountFunnel_GeneratedGiven(t *testing.T) {
	gen := &Generated{Rows: map[FunnelGroup]int{{"retail", "anger"}: 10, {"retail", "sadness"}: 4}, Total: 12}
	f := CountFunnel(funnelFixture()[:4], FilterCriteria{MinReward: 1, KeepAbandoned: true}, gen)
	if got, want := len(f.Rows), 2; got != want {
		t.Fatalf("%d rows, want %d (a generated family without trajectories has a row)", got, want)
	}
	if got, want := f.Rows[0].Generated, 10; got != want {
		t.Fatalf("anger generated = %d, want %d", got, want)
	}
	if got, want := f.Rows[1], (FunnelRow{Domain: "retail", Family: "sadness", Generated: 4}); got != want {
		t.Fatalf("sadness row = %+v, want %+v", got, want)
	}
	// Without a bound and with abandoned kept: 1, 2 and 4 are kept.
	if got, want := f.Total, (FunnelRow{Generated: 12, Collected: 4, Passed: 3, NotAbandoned: 3, WithinDependence: 3, Kept: 3}); got != want {
		t.Fatalf("total = %+v, want %+v", got, want)
	}
}

// Test-split trajectories are counted as excluded and go no further,
// whatever their reward; AllowTestTasks keeps them in the funnel.
func TestCountFunnel_TestExcluded(t *testing.T) {
	trajs := funnelFixture()[:4] // retail/anger: 1 kept, 2 abandoned, 3 failed, 4 passed
	trajs[0].TestSplit, trajs[2].TestSplit = true, true
	f := CountFunnel(trajs, FilterCriteria{MinReward: 1}, nil)
	if got, want := f.Total, (FunnelRow{Generated: 2, Collected: 4, TestExcluded: 2, Passed: 2, NotAbandoned: 1, WithinDependence: 1, Kept: 1}); got != want {
		t.Fatalf("total = %+v, want %+v", got, want)
	}
	if got, want := f.Kept, []int64{4}; !slices.Equal(got, want) {
		t.Fatalf("kept = %v, want %v", got, want)
	}
	f = CountFunnel(trajs, FilterCriteria{MinReward: 1, AllowTestTasks: true}, nil)
	if got, want := f.Total.TestExcluded, 0; got != want || !slices.Equal(f.Kept, []int64{1, 4}) {
		t.Fatalf("with AllowTestTasks: test excluded %d, kept %v; want 0, [1 4]", got, f.Kept)
	}
}

func ExampleCountFunnel() {
	x := 2.0
	f := CountFunnel(funnelFixture(), FilterCriteria{MinReward: 1, MaxUserDependence: &x}, nil)
	t := f.Total
	fmt.Println(t.Generated, t.Collected, t.Passed, t.NotAbandoned, t.WithinDependence, t.Kept)
	// Output: 5 10 7 6 3 3
}
