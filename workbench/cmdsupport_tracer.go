package workbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// CheckLLMTimeout refuses a per-request LLM timeout d that is not
// positive, as an EREQUEST error about the setting "timeout": the LLM
// client reads 0 (and less) as its default, and would run with a time
// limit other than the one given.
func CheckLLMTimeout(d time.Duration) error {
	if d <= 0 {
		return settingf("timeout", "%v: need a positive duration (the time limit of each LLM request)", d)
	}
	return nil
}

// keyEnvName matches an environment variable's name.
var keyEnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RoleClient is the one constructor of an LLM client from a role's
// settings, for the roles a command names by its settings role,
// role-base-url and role-api-key-env ("judge", "paraphrase"): name is
// "llm:MODEL", r the endpoint and key variable, llm the timeout. Its errors
// are EREQUEST errors about those settings: a name that is not llm:MODEL, a
// key variable that is not a variable's name (a pasted key: not shown), an
// endpoint holding a credential (CheckEndpoint), then sim.NewRoleClient's.
func RoleClient(role, name string, r emobench.LLMRole, llm sim.LLMOptions) (*sim.LLMClient, error) {
	model, ok := strings.CutPrefix(name, "llm:")
	if !ok || model == "" {
		return nil, settingf(role, "%q is not llm:MODEL", name)
	}
	if r.APIKeyEnv != "" && !keyEnvName.MatchString(r.APIKeyEnv) {
		return nil, settingf(role+"-api-key-env", "takes the name of the environment variable holding the key, not the key (the value given is not shown)")
	}
	if err := CheckEndpoint(role+"-base-url", r.BaseURL); err != nil {
		return nil, err
	}
	client, err := sim.NewRoleClient(role, model, r, llm)
	return client, emobench.AsRequest(err) // EREQUEST, still naming the setting
}

// GenerateSettings are tracer generate's settings as a front end takes
// them, before they are parsed into tracer.GenerateOptions.
type GenerateSettings struct {
	Domain string // a domain with an intent catalog (sim.CatalogDomain)
	N      int    // tasks to generate, ≥ 1
	Seed   uint64
	Split  emobench.Split // test or train; train excludes the domain's test tasks
	// WalkSteps and Intents are comma-separated integers (tracer.ParseInts).
	// Values other than the defaults are drawn uniformly unless their
	// weights (WalkStepsDist, IntentsDist: comma-separated numbers; nil
	// for the defaults) are given.
	WalkSteps, Intents         string
	WalkStepsDist, IntentsDist *string
	// Forbidden, Transfer and Read are the kinds' shares, in [0, 1]
	// (tracer.GenerateOptions' ForbiddenShare, TransferShare, ReadShare).
	Forbidden, Transfer, Read float64
	Emotions                  string // family weights "anger=2,fear=1"; "" balanced
	// Paraphrase is "llm:MODEL" rewriting each instruction, "" for none;
	// ParaphraseLLM its endpoint and key variable, LLM its timeout.
	Paraphrase    string
	ParaphraseLLM emobench.LLMRole
	LLM           sim.LLMOptions
	Exclude       string // a JSON tasks file whose action sets no task may repeat; "" none
}

// generateSettings name the setting of each tracer.GenerateOptions field
// a *tracer.OptionError names.
var generateSettings = map[string]string{"N": "n", "Split": "split", "WalkSteps": "walk-steps", "WalkStepsDist": "walk-steps-dist", "Intents": "intents",
	"IntentsDist": "intents-dist", "ForbiddenShare": "forbidden", "TransferShare": "transfer", "ReadShare": "read", "EmotionWeights": "emotions"}

// Options parses and checks s into tracer.NewGenerateOptions' options
// and finds its domain. Every error is an EREQUEST error naming the
// setting ("walk-steps \"2,x\": ...", "exclude FILE: ...").
func (s GenerateSettings) Options() (tracer.GenerateOptions, sim.CatalogDomain, error) {
	if s.Domain == "" {
		return tracer.GenerateOptions{}, nil, settingf("domain", "is needed: one of %s", strings.Join(all.Names(), ", "))
	}
	o := tracer.NewGenerateOptions()
	o.N, o.Seed, o.Split = s.N, s.Seed, s.Split
	o.ForbiddenShare, o.TransferShare, o.ReadShare = s.Forbidden, s.Transfer, s.Read
	raw := map[string]any{"N": s.N, "Split": string(s.Split), "WalkSteps": s.WalkSteps, "Intents": s.Intents,
		"ForbiddenShare": s.Forbidden, "TransferShare": s.Transfer, "ReadShare": s.Read, "EmotionWeights": s.Emotions}
	var err error
	for _, l := range []struct {
		setting, field, values string
		dist                   *string
		into                   *[]int
		weights                *[]float64
	}{{"walk-steps", "WalkStepsDist", s.WalkSteps, s.WalkStepsDist, &o.WalkSteps, &o.WalkStepsDist}, {"intents", "IntentsDist", s.Intents, s.IntentsDist, &o.Intents, &o.IntentsDist}} {
		v, err := tracer.ParseInts(l.values)
		if err != nil {
			return o, nil, settingf(l.setting, "%q: %v", l.values, err)
		}
		if !slices.Equal(v, *l.into) { // other values than the default: uniform unless weighed
			*l.into, *l.weights = v, nil
		}
		if l.dist != nil {
			raw[l.field] = *l.dist
			if *l.weights, err = tracer.ParseWeights(*l.dist); err != nil {
				return o, nil, settingf(l.setting+"-dist", "%q: %v", *l.dist, err)
			}
		}
	}
	if o.EmotionWeights, err = tracer.ParseEmotionWeights(s.Emotions); err != nil {
		return o, nil, settingf("emotions", ": %v", err)
	}
	var bad *tracer.OptionError
	if err := o.Validate(); errors.As(err, &bad) && generateSettings[bad.Field] != "" {
		v := raw[bad.Field]
		if str, ok := v.(string); ok {
			v = strconv.Quote(str)
		}
		// The option's message begins with its own name and value ("n 0:
		// need at least 1 task"): the setting's name and value replace them.
		reason := err.Error()
		if _, rest, ok := strings.Cut(reason, ": "); ok {
			reason = rest
		}
		return o, nil, settingf(generateSettings[bad.Field], "%v: %s", v, reason)
	} else if err != nil {
		return o, nil, &emobench.Error{Code: emobench.EREQUEST, Message: err.Error(), Err: err}
	}
	if s.Paraphrase != "" {
		client, err := RoleClient("paraphrase", s.Paraphrase, s.ParaphraseLLM, s.LLM)
		if err != nil {
			return o, nil, err
		}
		o.Paraphraser = &tracer.LLMParaphraser{Client: client}
	}
	if s.Exclude != "" {
		b, err := os.ReadFile(s.Exclude)
		if err == nil {
			o.Exclude, err = sim.DecodeTasks(b)
		}
		if err != nil {
			return o, nil, settingf("exclude", "%s: %v", s.Exclude, err)
		}
	}
	found, err := all.Find(s.Domain)
	if err != nil {
		return o, nil, settingf("domain", ": %v", err)
	}
	dom, ok := found.(sim.CatalogDomain)
	if !ok {
		return o, nil, settingf("domain", "%s has no intent catalog yet: Tracer cannot generate its tasks", found.Name())
	}
	if o.Split == emobench.SplitTrain {
		o.Exclude = append(o.Exclude, tracer.TestTasks(dom.Tasks())...)
	}
	return o, dom, nil
}

// auditTasksOf reads the tasks tracer audit checks and names where they
// came from: a tasks file (path), a task set stored in the database at
// dbPath (set), or a domain's embedded tasks (domain); exactly one is not
// "" (Audit checks). A set the database does not hold, or no
// database, and an unknown domain are EREQUEST errors; a file that does
// not decode is an error naming it.
func auditTasksOf(ctx context.Context, dbPath, path, set, domain string) (string, []emobench.TaskSpec, error) {
	switch {
	case set != "":
		if _, err := os.Stat(dbPath); err != nil {
			return "", nil, settingf("task-set", "%s: no database at %s (store the task set with emobench tracer generate first)", set, dbPath)
		}
		store, err := OpenCurrent(ctx, dbPath)
		if err != nil {
			return "", nil, err
		}
		defer store.Close()
		var missing *db.TaskSetNotFoundError
		_, tasks, err := store.LoadTaskSet(ctx, set)
		if errors.As(err, &missing) {
			return "", nil, settingf("task-set", ": %v in %s (tracer generate stores one)", err, dbPath)
		}
		return "task set " + set, tasks, err
	case path != "":
		data, err := os.ReadFile(path)
		if err != nil {
			return "", nil, err
		}
		tasks, err := sim.DecodeAuditTasks(data)
		if err != nil {
			return "", nil, fmt.Errorf("tracer audit: %s: %w", path, err)
		}
		return path, tasks, nil
	}
	dom, err := all.Find(domain)
	if err != nil {
		return "", nil, &emobench.Error{Code: emobench.EREQUEST, Message: err.Error(), Err: err}
	}
	return "domain " + domain, dom.Tasks(), nil
}

// ReadTaskSource reads the tasks a run or a collection runs instead of
// the domains' own: the tasks file file (ReadTasksFile) or the task set
// set stored in the database at dbPath (ReadTaskSet); nil, nil when both
// are "". Both given, and no database at dbPath for a task set, are
// EREQUEST errors.
func ReadTaskSource(ctx context.Context, dbPath, file, set string) (*TaskSource, error) {
	switch {
	case file != "" && set != "":
		return nil, settingf("task-set", "%s: give a task set or a tasks file, not both", set)
	case file != "":
		return ReadTasksFile(file)
	case set == "":
		return nil, nil
	}
	store, err := OpenCurrent(ctx, dbPath)
	if errors.Is(err, db.ErrNotFound) {
		return nil, settingf("task-set", "%s: no database at %s (store the task set with emobench tracer generate first)", set, dbPath)
	}
	if err != nil {
		return nil, err
	}
	defer store.Close()
	return ReadTaskSet(ctx, store, set)
}

// PlanRunsOver is PlanRuns over src's tasks instead of the domains' own
// (src nil: PlanRuns(r)). r.Domains, when domainsGiven, must each hold a
// task of src (CheckDomains), else they are src's domains; the split is
// src's unless splitGiven. The plans record src (Record), so that a
// resume and the funnel find its tasks.
func PlanRunsOver(r PlanRequest, src *TaskSource, domainsGiven, splitGiven bool) ([]sim.PlannedRun, error) {
	if src == nil {
		return PlanRuns(r)
	}
	if err := src.CheckDomains(r.Domains); err != nil {
		return nil, err
	}
	r.Tasks = src.Tasks
	if !domainsGiven {
		r.Domains = src.Domains()
	}
	if split := src.Split(); !splitGiven && split != "" {
		r.Options.Split = split
	}
	plans, err := PlanRuns(r)
	if err == nil {
		src.Record(plans)
	}
	return plans, err
}

// GenerateTarget is where GenerateTasks puts the tasks: the JSON file
// Out, or else the task set Name (Replace: replacing one of that name) in
// the database Open opens for writing (DBPath names it in the lines).
type GenerateTarget struct {
	Out     string
	Name    string
	Replace bool
	DBPath  string
	Open    func(context.Context) (*db.DB, error)
	Print   func(line string) // the closing line: where the tasks went
	Summary io.Writer         // the generation's summary (Generated.WriteText)
	Now     func() time.Time  // the task set's creation time; nil: time.Now
}

// GenerateTasks generates opts' tasks of dom (tracer.Generate), writes
// the summary of what it generated and rejected to t.Summary (also when
// it fails midway), then writes them to t.Out or stores them as the task
// set t.Name (tracer.StoreTaskSet: a name taken meanwhile is its
// ECONFLICT error). Errors are Generate's, the file's or the store's.
func GenerateTasks(ctx context.Context, dom sim.CatalogDomain, opts tracer.GenerateOptions, t GenerateTarget) error {
	gen, err := tracer.Generate(ctx, dom, opts)
	if gen != nil {
		gen.WriteText(t.Summary)
	}
	if err != nil {
		return err
	}
	if t.Out != "" {
		if err := sim.WriteTasksFile(t.Out, gen.Tasks, len(gen.Tasks)); err != nil {
			return err
		}
		t.Print(fmt.Sprintf("wrote %d tasks to %s", len(gen.Tasks), t.Out))
		return nil
	}
	store, err := t.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	if _, err := tracer.StoreTaskSet(ctx, store, t.Name, dom.Name(), opts, gen, t.Replace, now()); err != nil {
		return err
	}
	t.Print(fmt.Sprintf("stored %d tasks as task set %s in %s (run them with: emobench run --task-set %s)", len(gen.Tasks), t.Name, t.DBPath, t.Name))
	return nil
}
