package sim

import "github.com/emobench/emobench"

// This file turns a write request's grounding into the grounding of its
// refusal, so that a catalog states a forbidden intent as the write the
// policy refuses rather than as a second grounding of the same request.

// RefusedWrite returns gr, the grounding of a request whose gold ends with
// a write, as the grounding of that request refused: the write becomes
// the forbidden entry (compared on compare, all its arguments when none:
// WithCompareArgs), the gold keeps the reads before it, the request is
// complete once the last of them is called (Request.Tools), and the
// write's outputs go with the write. gr must hold at least one read
// before the write; RefusedWrite panics otherwise, a bug in the grounder.
// It does not change gr's slices.
func RefusedWrite(gr Grounding, compare ...string) Grounding {
	last := len(gr.Actions) - 1
	if last < 1 {
		panic("sim.RefusedWrite: a refused write needs a read before it")
	}
	gr.Forbidden = []emobench.Action{WithCompareArgs(gr.Actions[last], compare...)}
	gr.Actions, gr.Outputs = gr.Actions[:last:last], nil
	gr.Request.Tools = []string{gr.Actions[last-1].Name}
	return gr
}
