package db

import (
	"context"
	"encoding/json"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// remapPairs keeps the pairs of merged native runs
// (emobench.RunSpec.Pair): when a run of src joined a run of the target
// (a shard of the same run) and another run of its command was added, the
// added run takes the pair of the run joined, so that the two still pair.
// added says, per src run id, whether merge added it; newID gives its id
// in the target.
func remapPairs(ctx context.Context, q *sqlcdb.Queries, runs []emobench.Run, newID map[int64]int64, added map[int64]bool) error {
	remap := map[string]string{}
	for _, r := range runs {
		from := pairOf(r.Config)
		if r.SourceFormat != emobench.SourceNative || added[r.ID] || from == "" {
			continue
		}
		joined, err := q.FindRunConfig(ctx, newID[r.ID])
		if err != nil {
			return err
		}
		if to := pairOf(json.RawMessage(joined.Config)); to != "" && to != from && remap[from] == "" {
			remap[from] = to
		}
	}
	for _, r := range runs {
		to, ok := remap[pairOf(r.Config)]
		if !ok || !added[r.ID] || r.SourceFormat != emobench.SourceNative {
			continue
		}
		stored, err := q.FindRunConfig(ctx, newID[r.ID])
		if err != nil {
			return err
		}
		spec, err := emobench.DecodeRunSpec(json.RawMessage(stored.Config))
		if err != nil {
			continue
		}
		spec.Pair = to
		if err := q.UpdateRunConfig(ctx, sqlcdb.UpdateRunConfigParams{Config: string(spec.Encode()), ID: newID[r.ID]}); err != nil {
			return err
		}
	}
	return nil
}

// pairOf is a native run config's pair id; "" for none.
func pairOf(config json.RawMessage) string {
	spec, err := emobench.DecodeRunSpec(config)
	if err != nil {
		return ""
	}
	return spec.Pair
}
