package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/emobench/emobench"
)

// IntentKind says what the right behaviour on an intent is.
type IntentKind string

// Intent kinds.
const (
	// IntentWrite asks for a change the policy allows: the gold actions
	// hold at least one write.
	IntentWrite IntentKind = "write"
	// IntentRead asks for information: the gold actions only read and the
	// answer is among the task's outputs.
	IntentRead IntentKind = "read"
	// IntentForbidden asks for a write the policy forbids here: the gold
	// actions only read, the refused writes go to TaskSpec.Forbidden and the
	// right outcome is an unchanged database plus a refusal.
	IntentForbidden IntentKind = "forbidden"
	// IntentTransfer asks for something only a human can do: the gold
	// actions end with the domain's transfer tool.
	IntentTransfer IntentKind = "transfer"
)

// CatalogDomain is a Domain that declares an intent catalog, which Tracer
// turns into tasks. Domains implement it; tracer/ consumes it, so domains
// never import tracer/.
type CatalogDomain interface {
	Domain
	// Catalog returns the domain's intent catalog over its initial
	// database.
	Catalog() *Catalog
}

// Catalog is what a domain declares for task generation: its tool graph,
// how users authenticate, its intents, and the policy predicates that
// check a gold write.
type Catalog struct {
	// Openers are the tools that can open a conversation (typically the
	// authentication lookups); every walk starts at one.
	Openers []string
	// Follows is the tool graph: Follows[a] lists the tools that can come
	// right after a, because a's result gives what they need.
	Follows map[string][]string
	// Intents are the things a user may come for, allowed and forbidden.
	Intents []Intent
	// Users lists the ids of the users tasks may be built for, in a stable
	// order.
	Users func(env Environment) []string
	// Authenticate returns the gold call that identifies user (the walk's
	// opener) and the facts the user gives for it (e-mail, or name and
	// zip); r chooses among the ways the policy allows.
	Authenticate func(env Environment, userID string, r *rand.Rand) (emobench.Action, map[string]string)
	// CheckPolicy reports, before a gold write runs on env, whether the
	// policy allows it for userID: nil if it does, an error naming the rule
	// it breaks otherwise. Tracer keeps a task only if every gold write
	// passes and every forbidden write fails. It is the domain's copy of
	// policy.md's rules, never called by a tool.
	CheckPolicy func(env Environment, userID string, a emobench.Action) error
	// ExemptArgs names the write arguments Tracer's facts reachable check
	// skips: values the user need not know nor a read find, such as
	// enum words the request states anyway (a cancel reason) or free text.
	// nil: none.
	ExemptArgs []string
	// Alternatives returns, for a gold write of a task (gold) about to
	// run on env (the state after the task's earlier gold calls), the
	// other writes a user with these facts (the task's scenario facts)
	// could accept: the same request carried out another way that the
	// user's words do not rule out (another flight on the route and date,
	// another payment method the user has, another matching item, another
	// slot). It need not filter by policy: Tracer's audit keeps those
	// CheckPolicy allows and that change the end state, and fails a task
	// with any (more than one valid end state). nil: the domain declares
	// no alternatives, and the audit says it cannot check.
	Alternatives func(env Environment, userID string, facts map[string]string, gold emobench.Action) []emobench.Action
}

// Intent is one kind of request: a tool path and a grounder that fills it
// with real entities.
type Intent struct {
	// Name identifies the intent, e.g. "cancel_pending_order".
	Name string
	Kind IntentKind
	// Path is the tool walk the intent realizes after the opener, in
	// order, e.g. [get_order_details, cancel_pending_order]; it must be a
	// walk of Catalog.Follows from an opener. Its length plus one (the
	// opener) is the intent's walk steps.
	Path []string
	// Families are the emotion families that fit the scenario (nil: all
	// five); a cancelled-flight complaint is not pride.
	Families []string
	// Templates are user-facing phrasings of the request, with {slot}
	// placeholders that Grounding.Slots fills; Tracer picks one.
	Templates []string
	// Ground proposes one concrete instance of the intent for userID on
	// env, which holds the state after the task's earlier intents. It
	// returns false when the user has nothing this intent applies to. It
	// must not change env; Tracer replays the actions on its own copy.
	Ground func(g GroundContext) (Grounding, bool)
}

// GroundContext is what a grounder is given.
type GroundContext struct {
	// Env is a copy of the database with the task's earlier intents
	// already applied; a domain reads its own state through it
	// (env.(*StateEnv[DB]).State).
	Env    Environment
	UserID string
	Rand   *rand.Rand
	// Used reports whether an entity id was already used by a kept task,
	// so grounders can prefer fresh ones.
	Used func(id string) bool
	// UsedInTask reports whether an earlier intent of the same task used
	// an entity id (its Grounding.Uses), so grounders can avoid asking for
	// the same thing of one entity twice. nil: none used.
	UsedInTask func(id string) bool
	// WantTraits asks for an instance with a trait (Grounding.Traits:
	// emobench.TraitConditional, the user states a condition;
	// emobench.TraitFindable, the user does not know an id the agent must
	// find) when the intent has one: Tracer sets it while a test split
	// measuring the policy (GenerateOptions.MeasurePolicy) is short of its
	// 30% of tasks with a trait. A grounder that can give both should
	// give the one with a trait; one that cannot ignores it. Tracer
	// rejects a candidate without a trait while it is short, so a
	// grounder that returns traits only when asked still reaches the
	// share.
	WantTraits bool
}

// Grounding is one grounded intent: the facts the user knows, the request
// as the scripted user tracks it, the gold calls after authentication, the
// outputs the agent must say, and for a forbidden intent the writes the
// user asks for that the policy refuses.
type Grounding struct {
	// Slots fill the intent's Templates.
	Slots map[string]string
	// Facts are what the user knows and may reveal (key → value).
	Facts map[string]string
	// Request is the request as the scripted user tracks it: its text, and
	// the tools whose success with matching arguments completes it.
	Request emobench.Request
	// Actions are the gold calls, reads and writes, after authentication.
	Actions []emobench.Action
	// Outputs are strings the agent must tell the user.
	Outputs []string
	// Forbidden are the writes the policy refuses here (IntentForbidden
	// only); none is among Actions.
	Forbidden []emobench.Action
	// Traits are what makes this instance harder than a plain request
	// (emobench.TraitConditional, emobench.TraitFindable); Tracer records
	// them, merged, in TaskSpec.Traits.
	Traits []string
	// Advice is what the agent must tell the user here (TaskSpec.Advice).
	Advice []emobench.Advice
	// Uses are the entity ids this instance consumes (orders,
	// reservations): GroundContext.UsedInTask for the task's later intents,
	// and GroundContext.Used once its task is kept.
	Uses []string
}

// RenderTemplate fills {slot} placeholders of tmpl from slots. A
// placeholder without a slot is an error naming it.
func RenderTemplate(tmpl string, slots map[string]string) (string, error) {
	out := make([]byte, 0, len(tmpl))
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '{' {
			out = append(out, tmpl[i])
			continue
		}
		end := i + 1
		for end < len(tmpl) && tmpl[end] != '}' {
			end++
		}
		if end == len(tmpl) {
			return "", fmt.Errorf("template %q: unclosed {", tmpl)
		}
		key := tmpl[i+1 : end]
		v, ok := slots[key]
		if !ok {
			return "", fmt.Errorf("template %q: no slot %q", tmpl, key)
		}
		out = append(out, v...)
		i = end
	}
	return string(out), nil
}

// Validate checks the catalog's shape against the domain's tools: every
// tool it names exists, every intent's path is a walk of Follows from an
// opener, and every intent has a grounder and a template.
func (c *Catalog) Validate(tools []ToolSchema) error {
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	check := func(where, name string) error {
		if !known[name] {
			return fmt.Errorf("catalog: %s names unknown tool %q", where, name)
		}
		return nil
	}
	if len(c.Openers) == 0 || c.Users == nil || c.Authenticate == nil || c.CheckPolicy == nil {
		return fmt.Errorf("catalog: needs openers, Users, Authenticate and CheckPolicy")
	}
	for _, o := range c.Openers {
		if err := check("openers", o); err != nil {
			return err
		}
	}
	for from, tos := range c.Follows {
		if err := check("follows", from); err != nil {
			return err
		}
		for _, to := range tos {
			if err := check("follows["+from+"]", to); err != nil {
				return err
			}
		}
	}
	seen := map[string]bool{}
	for _, in := range c.Intents {
		switch {
		case in.Name == "" || seen[in.Name]:
			return fmt.Errorf("catalog: intent name %q empty or repeated", in.Name)
		case in.Ground == nil || len(in.Templates) == 0 || len(in.Path) == 0:
			return fmt.Errorf("catalog: intent %s needs a path, a grounder and a template", in.Name)
		}
		seen[in.Name] = true
		switch in.Kind {
		case IntentWrite, IntentRead, IntentForbidden, IntentTransfer:
		default:
			return fmt.Errorf("catalog: intent %s: unknown kind %q", in.Name, in.Kind)
		}
		prev := c.Openers
		for i, tool := range in.Path {
			if err := check("intent "+in.Name, tool); err != nil {
				return err
			}
			if !slices.ContainsFunc(prev, func(p string) bool { return slices.Contains(c.Follows[p], tool) }) {
				return fmt.Errorf("catalog: intent %s: step %d (%s) does not follow %v in the tool graph", in.Name, i, tool, prev)
			}
			prev = []string{tool}
		}
		for _, f := range in.Families {
			if !slices.ContainsFunc(emobench.Taxonomy.Families, func(fam emobench.Family) bool { return fam.Name == f }) {
				return fmt.Errorf("catalog: intent %s: unknown emotion family %q", in.Name, f)
			}
		}
	}
	return nil
}

// CallArgs decodes a gold action's arguments into a map, for policy
// predicates and grounders.
func CallArgs(a emobench.Action) (map[string]any, error) {
	m := map[string]any{}
	if len(a.Arguments) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(a.Arguments, &m); err != nil {
		return nil, fmt.Errorf("%s: arguments: %w", a.Name, err)
	}
	return m, nil
}
