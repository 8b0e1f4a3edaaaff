package tracer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/emobench/emobench/db"
)

// Params are the generation options as a task set records them (its
// params JSON): enough, with the generator version, to generate the same
// tasks again.
type Params struct {
	N              int                `json:"n"`
	Seed           uint64             `json:"seed"`
	Split          string             `json:"split"`
	WalkSteps      []int              `json:"walk_steps"`
	WalkStepsDist  []float64          `json:"walk_steps_dist,omitempty"`
	Intents        []int              `json:"intents"`
	IntentsDist    []float64          `json:"intents_dist,omitempty"`
	ForbiddenShare float64            `json:"forbidden_share"`
	TransferShare  float64            `json:"transfer_share"`
	ReadShare      float64            `json:"read_share"`
	EmotionWeights map[string]float64 `json:"emotion_weights,omitempty"`
	// Paraphrase is the paraphrasing model, llm:MODEL; empty for none.
	Paraphrase string `json:"paraphrase,omitempty"`
	// Excluded is the number of tasks whose action sets were refused.
	Excluded int `json:"excluded"`
}

// ParamsOf returns the recorded form of o. A Paraphraser with a Model
// method is recorded as llm:MODEL.
func ParamsOf(o GenerateOptions) Params {
	p := Params{
		N: o.N, Seed: o.Seed, Split: string(o.Split), WalkSteps: o.WalkSteps, WalkStepsDist: o.WalkStepsDist,
		Intents: o.Intents, IntentsDist: o.IntentsDist, ForbiddenShare: o.ForbiddenShare, TransferShare: o.TransferShare,
		ReadShare: o.ReadShare, EmotionWeights: o.EmotionWeights, Excluded: len(o.Exclude),
	}
	if m, ok := o.Paraphraser.(interface{ Model() string }); ok {
		p.Paraphrase = "llm:" + m.Model()
	}
	return p
}

// Model is the paraphrasing model's name.
func (p *LLMParaphraser) Model() string { return p.Client.Model() }

// StoreTaskSet stores gen, made by Generate on domain with opts, as the
// task set name (db.CreateTaskSet: one transaction, an existing name is
// a *db.TaskSetExistsError unless replace), stamped now, and returns its
// id.
func StoreTaskSet(ctx context.Context, store *db.DB, name, domain string, opts GenerateOptions, gen *Generated, replace bool, now time.Time) (int64, error) {
	params, err := json.Marshal(ParamsOf(opts))
	if err != nil {
		return 0, fmt.Errorf("task set %s: params: %w", name, err)
	}
	rejected, err := json.Marshal(gen.Rejected)
	if err != nil {
		return 0, fmt.Errorf("task set %s: rejected: %w", name, err)
	}
	return store.CreateTaskSet(ctx, db.TaskSet{
		Name: name, Source: GeneratorName, Domain: domain, Split: opts.Split, GeneratorVersion: GeneratorVersion,
		Seed: opts.Seed, Params: params, Rejected: rejected, CreatedAt: now,
	}, gen.Tasks, replace)
}
