package workbench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
)

// ResumeLLM is what the command line gives a resumed run's llm: roles.
type ResumeLLM struct {
	// BaseURL (--base-url), when not nil, is the endpoint of every llm:
	// role for this session, unless the role has one of its own (recorded
	// by a native run, or given in Agent, User or Judge for a foreign one).
	BaseURL *string
	// Agent, User and Judge hold a role's own flags: BaseURL
	// (--agent-base-url, …) and APIKeyEnv (--agent-api-key-env, …), ""
	// when not given. Only a run that is not native takes them: a native
	// run's are its recorded settings.
	Agent, User, Judge emobench.LLMRole
}

// resumeRole is one llm: role of a resumed run: its flags' prefix, its
// participant, the flags given for it and its recorded settings.
type resumeRole struct {
	flag, participant string
	given             emobench.LLMRole
	recorded          **emobench.LLMRole
}

func (l ResumeLLM) roles(spec *emobench.RunSpec) []resumeRole {
	return []resumeRole{{"agent", spec.Agent, l.Agent, &spec.AgentLLM}, {"user", spec.User, l.User, &spec.UserLLM},
		{"judge", spec.Judge, l.Judge, &spec.JudgeLLM}}
}

// sessionLLM sets, in spec, the endpoints and key variables this session
// of run uses. A run whose config emobench run sealed on this machine
// (sealedHere; a merge of shards run here included) keeps its recorded
// ones; a --base-url moves them for this session, with a note. Any other
// run (a shared or merged .db from elsewhere, a config edited since, or
// one stored before configs were sealed) came with a config that someone
// else may have written: its endpoints and key variables
// are not used, so that no key is sent where that file says. Each of its
// llm: roles takes its endpoint from the role's flag or --base-url (a
// EREQUEST error naming the flags when neither is given) and its key from
// the role's key variable flag, or sim.DefaultAPIKeyEnv.
func sessionLLM(ctx context.Context, store *db.DB, run emobench.Run, spec *emobench.RunSpec, llm ResumeLLM, opts ExecuteOptions) error {
	prov, err := runProvenance(ctx, store, run.ID)
	if err != nil {
		return err
	}
	key, keyErr := opts.sealKey()
	if !usesLLM(*spec) || (keyErr == nil && sealedHere(key, *spec)) { // no llm: role sends nothing anywhere
		for _, r := range llm.roles(spec) {
			flag := r.flag + "-base-url"
			if r.given.BaseURL == "" {
				flag = r.flag + "-api-key-env"
			}
			if r.given.BaseURL != "" || r.given.APIKeyEnv != "" {
				return settingf("resume", "reuses run %d's recorded settings: drop %s (base-url moves every endpoint for this session)", run.ID, flag)
			}
		}
		if llm.BaseURL != nil {
			if err := CheckEndpoint("base-url", *llm.BaseURL); err != nil {
				return err
			}
			if *llm.BaseURL != spec.BaseURL {
				opts.note("--base-url %s is for this session only: run %d keeps %s in its config, for a later --resume without --base-url (a role given its own endpoint keeps it)",
					*llm.BaseURL, run.ID, cmp.Or(spec.BaseURL, "the default endpoint ("+sim.DefaultLLMBaseURL+")"))
			}
			spec.BaseURL = *llm.BaseURL
		}
		return nil
	}
	base := ""
	if llm.BaseURL != nil {
		base = *llm.BaseURL
	}
	origin := "of unknown provenance (stored before emobench recorded merges)"
	switch prov.Kind {
	case db.ProvenanceMerged:
		origin = fmt.Sprintf("merged from %q and not sealed by emobench run on this machine", prov.MergedFrom)
	case db.ProvenanceNative, db.ProvenanceIngested:
		origin = "not sealed by emobench run on this machine (a .db made or edited elsewhere, or by an emobench older than the seal)"
	}
	if keyErr != nil && !errors.Is(keyErr, errNoSealKeyFile) {
		origin = fmt.Sprintf("not verifiable here, since this machine's seal key cannot be read (%v)", keyErr)
	}
	var missing, used []string
	for _, r := range llm.roles(spec) {
		if !strings.HasPrefix(r.participant, "llm:") {
			continue
		}
		endpoint, flag := r.given.BaseURL, r.flag+"-base-url"
		if endpoint == "" {
			endpoint, flag = base, "base-url"
		}
		if endpoint == "" {
			missing = append(missing, r.flag)
			continue
		}
		if err := CheckEndpoint(flag, endpoint); err != nil {
			return err
		}
		role := emobench.LLMRole{BaseURL: endpoint, APIKeyEnv: cmp.Or(r.given.APIKeyEnv, sim.DefaultAPIKeyEnv), Temperature: spec.Temperature}
		if r.flag == "judge" {
			role.Temperature = new(float64) // sim.NewJudge's for a judge recorded without settings
		}
		if *r.recorded != nil {
			role.Temperature = (*r.recorded).Temperature
		}
		*r.recorded = &role
		used = append(used, fmt.Sprintf("--%s to %s with $%s", r.flag, role.BaseURL, role.APIKeyEnv))
	}
	if len(missing) > 0 {
		return requestf("run %d is %s: a resume does not send your keys to the endpoints and key variables its config names; "+
			"give the endpoint with base-url URL (or %s-base-url URL), and the key's variable with %s-api-key-env NAME unless it is %s",
			run.ID, origin, strings.Join(missing, "-base-url URL, "), strings.Join(missing, "-api-key-env NAME, "), sim.DefaultAPIKeyEnv)
	}
	spec.BaseURL = base
	if len(used) > 0 {
		opts.note("run %d is %s: this session sends %s, not what its config names (kept there unchanged)", run.ID, origin, strings.Join(used, "; "))
	}
	return nil
}

// runProvenance returns the provenance of run id.
func runProvenance(ctx context.Context, store *db.DB, id int64) (db.Provenance, error) {
	all, err := store.ListProvenance(ctx)
	if err != nil {
		return db.Provenance{}, err
	}
	for _, p := range all {
		if p.RunID == id {
			return p, nil
		}
	}
	return db.Provenance{RunID: id, Kind: db.ProvenanceUnknown}, nil
}
