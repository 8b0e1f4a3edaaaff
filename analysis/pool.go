package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PoolKey is what the runs of one pool share: agent model, user model,
// domain and condition.
type PoolKey struct {
	AgentModel, UserModel, Domain, Condition string
}

// Unknown is the value a run's agent model, user model or domain has when
// its source did not say.
const Unknown = "unknown"

// Poolable reports whether runs with this key may be pooled: an unknown
// agent model or domain says nothing about what two runs share.
func (k PoolKey) Poolable() bool {
	return k.AgentModel != Unknown && k.AgentModel != "" && k.Domain != Unknown && k.Domain != ""
}

// Label is the key as "agent / user / domain / condition", its unknown
// fields left out: "qwen3 / retail / with-emotions" when the user model
// is unknown (KnownLabel).
func (k PoolKey) Label() string {
	return KnownLabel(k.AgentModel, k.UserModel, k.Domain, k.Condition)
}

// KnownLabel is GroupLabel of the fields that are known: empty and
// Unknown fields drop out, so a label has no "unknown / " segment. It is
// "" when no field is known.
func KnownLabel(fields ...string) string {
	known := make([]string, 0, len(fields))
	for _, f := range fields {
		if f != "" && f != Unknown {
			known = append(known, f)
		}
	}
	return GroupLabel(known...)
}

// Unit is what a statistic is computed over: one run (the default), or a
// pool, every run that shares a PoolKey.
//
// The rule for combining runs: statistics are per run unless pooled; in a
// pool every trajectory of a task in any of its runs is one trial of that
// task, so nothing is dropped and nothing is counted twice.
type Unit struct {
	// ID is RunIDs[0]. Functions that compute per run, such as PassK, take
	// it as their RunID: run ids belong to one unit each, so IDs are
	// unique, and a per-run unit's ID is its run id.
	ID     int64
	Key    PoolKey
	RunIDs []int64 // ascending; one id unless Pooled
	Pooled bool
}

// Units assigns runs to analysis units.
type Units struct {
	list  []Unit
	of    map[int64]int // run id → index in list
	apart []int64       // pooling: runs whose key is not Poolable, each alone
}

// NewUnits makes one unit per run of runs (run id → its key), or, when
// pool is set, one unit per distinct PoolKey holding every run with that
// key. A run whose key is not Poolable is never pooled with another: it
// is a unit of its own (see KeptApart). Units are ordered by ID.
func NewUnits(runs map[int64]PoolKey, pool bool) Units {
	return NewUnitsTagged(runs, nil, pool)
}

// NewUnitsTagged is NewUnits where, when pooling, runs pool only when
// their tags (run id → any text; none is "") are equal too: a pool holds
// runs of one PoolKey and one tag, such as the tuned runs of one tuning.
// A unit's Key is still the PoolKey.
func NewUnitsTagged(runs map[int64]PoolKey, tags map[int64]string, pool bool) Units {
	type taggedKey struct {
		key PoolKey
		tag string
	}
	ids := make([]int64, 0, len(runs))
	for id := range runs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	u := Units{of: make(map[int64]int, len(ids))}
	if len(ids) > 0 {
		u.list = make([]Unit, 0, len(ids))
	}
	var byKey map[taggedKey]int // pooling: a key's unit
	if pool {
		byKey = map[taggedKey]int{}
	}
	for _, id := range ids {
		key := runs[id]
		if pool && !key.Poolable() {
			u.apart = append(u.apart, id)
			u.of[id] = len(u.list)
			u.list = append(u.list, Unit{ID: id, Key: key, RunIDs: []int64{id}, Pooled: true})
			continue
		}
		if pool {
			k := taggedKey{key, tags[id]}
			if i, ok := byKey[k]; ok {
				u.list[i].RunIDs = append(u.list[i].RunIDs, id)
				u.of[id] = i
				continue
			}
			byKey[k] = len(u.list)
		}
		u.of[id] = len(u.list)
		u.list = append(u.list, Unit{ID: id, Key: key, RunIDs: []int64{id}, Pooled: pool})
	}
	return u
}

// KeptApart returns, when pooling, the runs that were not pooled because
// their key is not Poolable, ascending.
func (u Units) KeptApart() []int64 { return u.apart }

// List returns the units, ordered by ID.
func (u Units) List() []Unit { return u.list }

// Of returns the unit that holds runID; ok is false for an unknown run.
func (u Units) Of(runID int64) (unit Unit, ok bool) {
	i, ok := u.of[runID]
	if !ok {
		return Unit{}, false
	}
	return u.list[i], true
}

// ByID returns the unit whose ID is id (the zero Unit when none is).
func (u Units) ByID(id int64) Unit {
	if unit, ok := u.Of(id); ok && unit.ID == id {
		return unit
	}
	return Unit{}
}

// RunTask names a task one run holds, for Overlaps. Task is any text that
// identifies the task within a domain (its key or its id).
type RunTask struct {
	RunID int64
	Task  string
}

// Overlap is a task that appears in more than one run of a pool: its
// trajectories in every one of them are trials of that task.
type Overlap struct {
	Unit   Unit
	Task   string
	RunIDs []int64 // ascending, at least two
}

// Overlaps returns, for every pooled unit, the tasks that appear in more
// than one of its runs, ordered by unit ID and task. Per-run units never
// overlap.
func Overlaps(u Units, tasks []RunTask) []Overlap {
	type key struct {
		unit int
		task string
	}
	runs := map[key][]int64{}
	for _, t := range tasks {
		i, ok := u.of[t.RunID]
		if !ok || !u.list[i].Pooled {
			continue
		}
		k := key{i, t.Task}
		if !slices.Contains(runs[k], t.RunID) {
			runs[k] = append(runs[k], t.RunID)
		}
	}
	var out []Overlap
	for k, ids := range runs {
		if len(ids) > 1 {
			slices.Sort(ids)
			out = append(out, Overlap{Unit: u.list[k.unit], Task: k.task, RunIDs: ids})
		}
	}
	slices.SortFunc(out, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(a.Unit.ID, b.Unit.ID), CompareTaskKeys(a.Task, b.Task))
	})
	return out
}

// CompareTaskKeys orders task names numerically when both are integers.
func CompareTaskKeys(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(a, b)
}

// String is the overlap as a note: "pool M / U / D / C: task 7 appears in
// runs 3 and 5".
func (o Overlap) String() string {
	return fmt.Sprintf("pool %s: task %s appears in runs %s", o.Unit.Key.Label(), o.Task, runList(o.RunIDs))
}

// runList spells ids (at least two) as "1, 2 and 3".
func runList(ids []int64) string {
	words := make([]string, len(ids))
	for i, id := range ids {
		words[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// PoolTasks turns per-run task outcomes into per-unit ones: the TaskTrials
// of one unit, task (TaskID) and group add up their trials, passes and
// unevaluated trials, and
// carry the unit's ID as their RunID. Per-run units leave tasks as they
// are (the result may then be tasks itself). Tasks of runs that no unit
// holds are left out. The order of first appearance is kept.
func PoolTasks(tasks []TaskTrials, u Units) []TaskTrials {
	if !u.Pooled() {
		if out, ok := perRunTasks(tasks, u); ok {
			return out
		}
	}
	type key struct {
		unit  int64
		task  int64
		group string
	}
	index := make(map[key]int, len(tasks))
	out := make([]TaskTrials, 0, len(tasks))
	var unit Unit // the unit of lastRun, looked up once per run of tasks
	lastRun, held := int64(0), false
	for i, t := range tasks {
		if i == 0 || t.RunID != lastRun {
			lastRun = t.RunID
			unit, held = u.Of(t.RunID)
		}
		if !held {
			continue
		}
		k := key{unit.ID, t.TaskID, joinGroup(t.Group)}
		if j, seen := index[k]; seen {
			out[j].Trials += t.Trials
			out[j].Passes += t.Passes
			out[j].Unevaluated += t.Unevaluated
			out[j].Excluded += t.Excluded
			continue
		}
		index[k] = len(out)
		t.RunID = unit.ID
		out = append(out, t)
	}
	return out
}

// perRunTasks is PoolTasks for per-run units when each run's tasks are
// consecutive, as listings give them: the index of a run's tasks is
// cleared at the next run, rather than one index over every task (a map
// of 12,000 keys for 240 runs of 50 tasks), and when no task is left out
// or added up, out is tasks itself, not a copy. ok is false, and out nil,
// when a run's tasks resume after another run's.
func perRunTasks(tasks []TaskTrials, u Units) (out []TaskTrials, ok bool) {
	index := map[int64]int{} // task → its index in out; a task has one group in a run
	var runs map[int64]bool  // the runs passed, once a second one starts
	held := false
	copied := false // out is a copy: a task was left out or added up
	kept := 0       // tasks in out; while !copied, out is tasks[:kept]
	change := func(i int) {
		if !copied {
			out = append(make([]TaskTrials, 0, len(tasks)), tasks[:i]...)
			copied = true
		}
	}
	for i, t := range tasks {
		if i == 0 || t.RunID != tasks[i-1].RunID {
			if i > 0 {
				if runs == nil {
					runs = map[int64]bool{}
				}
				runs[tasks[i-1].RunID] = true
				if runs[t.RunID] {
					return nil, false
				}
			}
			clear(index)
			_, held = u.Of(t.RunID)
		}
		if !held {
			change(i)
			continue
		}
		if j, seen := index[t.TaskID]; seen {
			first := tasks[j] // out[j], before any change
			if copied {
				first = out[j]
			}
			if !slices.Equal(first.Group, t.Group) {
				return nil, false // a task in two groups of one run: PoolTasks' own index
			}
			change(i)
			out[j].Trials += t.Trials
			out[j].Passes += t.Passes
			out[j].Unevaluated += t.Unevaluated
			out[j].Excluded += t.Excluded
			continue
		}
		index[t.TaskID] = kept
		kept++
		if copied {
			out = append(out, t)
		}
	}
	if !copied {
		return tasks, true
	}
	return out, true
}

// joinGroup is a group's values as one map key; with none or one value
// (the usual --by) it allocates nothing.
func joinGroup(group []string) string {
	switch len(group) {
	case 0:
		return ""
	case 1:
		return group[0]
	}
	return strings.Join(group, "\x00")
}

// PoolRunTrials gives each unit's n for the MinTrials convention: the sum
// of its runs' n (each run gives every task that many trials), by unit ID.
func PoolRunTrials(runTrials map[int64]int, u Units) map[int64]int {
	if runTrials == nil {
		return nil
	}
	out := map[int64]int{}
	for _, unit := range u.list {
		for _, id := range unit.RunIDs {
			out[unit.ID] += runTrials[id]
		}
	}
	return out
}

// Pooled reports whether the units are pools (NewUnits with pool set).
func (u Units) Pooled() bool {
	return len(u.list) > 0 && u.list[0].Pooled
}

// Noun is "pool" for pooled units and "run" otherwise, for notes.
func (u Units) Noun() string {
	if u.Pooled() {
		return "pool"
	}
	return "run"
}

// JoinIDs writes run ids as "3,5".
func JoinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// Name names the unit in a note: "run 3", or "pool M / U / D / C (runs
// 3,5)". A pool kept apart (its key not Poolable) is named as its run.
func (u Unit) Name() string {
	if u.Pooled && u.Key.Poolable() {
		return fmt.Sprintf("pool %s (runs %s)", u.Key.Label(), JoinIDs(u.RunIDs))
	}
	return fmt.Sprintf("run %d", u.ID)
}

// Label names the unit in a chart: its run's name in names ("name (run
// N)" when another run has the same name, "run N" when it has none), or
// the pool's key (PoolKey.Label) with its run ids. A pool kept apart, its
// agent model or domain unknown, is named as its run. No two units share a
// label, so charts key cells by it.
func (u Unit) Label(names map[int64]string) string {
	if u.Pooled && u.Key.Poolable() {
		return fmt.Sprintf("%s (runs %s)", u.Key.Label(), JoinIDs(u.RunIDs))
	}
	name := names[u.ID]
	if name == "" {
		return fmt.Sprintf("run %d", u.ID)
	}
	for id, other := range names {
		if other == name && id != u.ID {
			return fmt.Sprintf("%s (run %d)", name, u.ID)
		}
	}
	return name
}

// plural is "1 task" or "3 tasks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TaskTrialOverlaps is Overlaps of per-run tasks, by task row (TaskID, as
// PoolTasks pools), each task named by keys[TaskID]. It is nil unless u
// is pooled.
func TaskTrialOverlaps(u Units, tasks []TaskTrials, keys map[int64]string) []Overlap {
	if !u.Pooled() {
		return nil
	}
	rt := make([]RunTask, len(tasks))
	for i, t := range tasks {
		rt[i] = RunTask{RunID: t.RunID, Task: strconv.FormatInt(t.TaskID, 10)}
	}
	overlaps := Overlaps(u, rt)
	for i, o := range overlaps {
		id, _ := strconv.ParseInt(o.Task, 10, 64)
		overlaps[i].Task = keys[id]
	}
	return overlaps
}

// NamedRunTask is a task one run holds, identified by Task (its content,
// say) and shown as Name (its key).
type NamedRunTask struct {
	RunID      int64
	Task, Name string
}

// NamedOverlaps is Overlaps by Task with each task shown by its Name,
// ordered by unit then CompareTaskKeys of the names: two runs may hold
// different tasks under one name. It is nil unless u is pooled.
func NamedOverlaps(u Units, tasks []NamedRunTask) []Overlap {
	if !u.Pooled() {
		return nil
	}
	rt := make([]RunTask, len(tasks))
	nameOf := map[string]string{}
	for i, t := range tasks {
		nameOf[t.Task] = t.Name
		rt[i] = RunTask{RunID: t.RunID, Task: t.Task}
	}
	overlaps := Overlaps(u, rt)
	for i, o := range overlaps {
		overlaps[i].Task = nameOf[o.Task]
	}
	slices.SortStableFunc(overlaps, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(a.Unit.ID, b.Unit.ID), CompareTaskKeys(a.Task, b.Task))
	})
	return overlaps
}

// OverlapNotes are the notes on overlaps: one per pool and set of runs,
// in order, naming up to most of its tasks ("pool P: task 2 appears in
// runs 1 and 2", or "pool P: 20 tasks appear in runs 1 and 2: 20, 21, …
// and 10 more"); past most such notes, one counts the tasks left.
func OverlapNotes(overlaps []Overlap, most int) []string {
	var notes []string
	for i := 0; i < len(overlaps); {
		if len(notes) == most {
			left := len(overlaps) - i
			return append(notes, fmt.Sprintf("and %s in more than one pooled run", plural(left, "more task", "more tasks")))
		}
		j := i + 1
		for j < len(overlaps) && overlaps[j].Unit.ID == overlaps[i].Unit.ID && slices.Equal(overlaps[j].RunIDs, overlaps[i].RunIDs) {
			j++
		}
		if j-i == 1 {
			notes = append(notes, overlaps[i].String())
			i = j
			continue
		}
		var names []string
		for _, o := range overlaps[i:min(j, i+most)] {
			names = append(names, o.Task)
		}
		list := strings.Join(names, ", ")
		if j-i > most {
			list += fmt.Sprintf(" and %d more", j-i-most)
		}
		notes = append(notes, fmt.Sprintf("pool %s: %d tasks appear in runs %s: %s", overlaps[i].Unit.Key.Label(), j-i, runList(overlaps[i].RunIDs), list))
		i = j
	}
	return notes
}
