package sim_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// KindOf takes the most specific kind; mixed only when asked to tell it
// apart.
func TestKindOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		asks         sim.TaskAsks
		want, merged string // with and without mixed
	}{
		{sim.TaskAsks{}, sim.KindRead, sim.KindRead},
		{sim.TaskAsks{Write: true}, sim.KindWrite, sim.KindWrite},
		{sim.TaskAsks{Transfer: true}, sim.KindTransfer, sim.KindTransfer},
		{sim.TaskAsks{Refusal: true, Transfer: true}, sim.KindRefusal, sim.KindRefusal},
		{sim.TaskAsks{Refusal: true, Write: true}, sim.KindMixed, sim.KindRefusal},
		{sim.TaskAsks{Transfer: true, Write: true}, sim.KindMixed, sim.KindTransfer},
	}
	for _, tt := range tests {
		if got := sim.KindOf(tt.asks, true); got != tt.want {
			t.Errorf("KindOf(%+v, mixed) = %s, want %s", tt.asks, got, tt.want)
		}
		if got := sim.KindOf(tt.asks, false); got != tt.merged {
			t.Errorf("KindOf(%+v) = %s, want %s", tt.asks, got, tt.merged)
		}
	}
}

// GoldAsks reads a task's gold: forbidden calls, a call to the transfer
// tool, a call to a write tool.
func TestGoldAsks(t *testing.T) {
	t.Parallel()
	writes := map[string]bool{"cancel": true, "transfer": true}
	tests := []struct {
		name string
		task emobench.TaskSpec
		want sim.TaskAsks
	}{
		{"no calls", emobench.TaskSpec{}, sim.TaskAsks{}},
		{"read", emobench.TaskSpec{Actions: []emobench.Action{{Name: "get"}}}, sim.TaskAsks{}},
		{"write", emobench.TaskSpec{Actions: []emobench.Action{{Name: "get"}, {Name: "cancel"}}}, sim.TaskAsks{Write: true}},
		{"transfer, a write tool", emobench.TaskSpec{Actions: []emobench.Action{{Name: "transfer"}}}, sim.TaskAsks{Transfer: true, Write: true}},
		{"refusal", emobench.TaskSpec{Actions: []emobench.Action{{Name: "get"}}, Forbidden: []emobench.Action{{Name: "cancel"}}}, sim.TaskAsks{Refusal: true}},
	}
	for _, tt := range tests {
		if got := sim.GoldAsks(&tt.task, writes, "transfer"); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// IntentAsks reads the kinds of a task's intents in the catalog; an
// intent the catalog does not know counts as none.
func TestIntentAsks(t *testing.T) {
	t.Parallel()
	cat := &sim.Catalog{Intents: []sim.Intent{
		{Name: "look", Kind: sim.IntentRead}, {Name: "cancel", Kind: sim.IntentWrite},
		{Name: "refund_cash", Kind: sim.IntentForbidden}, {Name: "human", Kind: sim.IntentTransfer},
	}}
	tests := []struct {
		intents []string
		want    sim.TaskAsks
		kind    string // KindOf with mixed
	}{
		{[]string{"look"}, sim.TaskAsks{}, sim.KindRead},
		{[]string{"look", "cancel"}, sim.TaskAsks{Write: true}, sim.KindWrite},
		{[]string{"cancel", "refund_cash"}, sim.TaskAsks{Refusal: true, Write: true}, sim.KindMixed},
		{[]string{"look", "human"}, sim.TaskAsks{Transfer: true}, sim.KindTransfer},
		{[]string{"refund_cash", "gone"}, sim.TaskAsks{Refusal: true}, sim.KindRefusal},
	}
	for _, tt := range tests {
		task := emobench.TaskSpec{Intents: tt.intents}
		got := sim.IntentAsks(cat, &task)
		if got != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.intents, got, tt.want)
		}
		if k := sim.KindOf(got, true); k != tt.kind {
			t.Errorf("%v: kind %s, want %s", tt.intents, k, tt.kind)
		}
	}
}
