package sim_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestRefusedWrite(t *testing.T) {
	read, write := sim.NewAction("get_bill", "bill_id", "B1"), sim.NewAction("waive_fee", "bill_id", "B1", "reason", "late")
	gr := sim.Grounding{Request: emobench.Request{Text: "Waive it.", Tools: []string{"waive_fee"}},
		Actions: []emobench.Action{read, write}, Outputs: []string{"$10"}}
	got := sim.RefusedWrite(gr, "bill_id")
	if len(got.Actions) != 1 || !sim.SameCall(got.Actions[0], read) || !slices.Equal(got.Request.Tools, []string{"get_bill"}) || got.Outputs != nil ||
		got.Request.Text != "Waive it." {
		t.Errorf("RefusedWrite = actions %v, tools %v, outputs %v, text %q; want the read alone, its tool, no outputs, the text kept",
			got.Actions, got.Request.Tools, got.Outputs, got.Request.Text)
	}
	if len(got.Forbidden) != 1 || !sim.SameCall(got.Forbidden[0], write) || !slices.Equal(got.Forbidden[0].CompareArgs, []string{"bill_id"}) {
		t.Errorf("RefusedWrite forbidden = %v, want the write compared on bill_id", got.Forbidden)
	}
	if len(gr.Actions) != 2 || gr.Forbidden != nil || !slices.Equal(gr.Request.Tools, []string{"waive_fee"}) {
		t.Errorf("RefusedWrite changed its argument: %+v", gr)
	}
	if all := sim.RefusedWrite(gr); all.Forbidden[0].CompareArgs != nil {
		t.Errorf("RefusedWrite without compare: CompareArgs %v, want nil (all arguments)", all.Forbidden[0].CompareArgs)
	}
	defer func() {
		if recover() == nil {
			t.Error("RefusedWrite of a write alone did not panic")
		}
	}()
	sim.RefusedWrite(sim.Grounding{Actions: []emobench.Action{write}})
}
