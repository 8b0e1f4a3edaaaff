package db

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"reflect"
	"strconv"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// OnDuplicate says what IngestRun does when a (task, trial) pair repeats
// within one source.
type OnDuplicate string

const (
	DuplicateRefuse   OnDuplicate = "refuse"    // fail the whole file (default)
	DuplicateKeepLast OnDuplicate = "keep-last" // the later record replaces the earlier
)

// IngestResult reports what IngestRun stored.
type IngestResult struct {
	RunID        int64
	Trajectories int // trajectories stored
	Replaced     int // earlier duplicates replaced under DuplicateKeepLast
}

// DuplicateError reports a (task, trial) pair seen twice in one source.
type DuplicateError struct {
	TaskKey    string
	Trial      int
	Index      int // record index of the repeat
	FirstIndex int // record index where the pair first appeared
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("duplicate (task_id %s, trial %d), first seen at record %d (use --on-duplicate keep-last to keep the later one)",
		e.TaskKey, e.Trial, e.FirstIndex)
}

// AlreadyIngestedError reports a source whose sha256 a stored run has (for
// instance, ingested meanwhile by another process).
type AlreadyIngestedError struct {
	RunID int64
	Name  string
}

func (e *AlreadyIngestedError) Error() string {
	return fmt.Sprintf("already ingested as run %d (%s)", e.RunID, e.Name)
}

// FindRunBySHA256 returns the id and name of the run ingested from a source
// whose sha256 (hex) is sum, or ErrNotFound.
func (db *DB) FindRunBySHA256(ctx context.Context, sum string) (int64, string, error) {
	row, err := db.queries.FindRunBySHA256(ctx, sql.NullString{String: sum, Valid: true})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", ErrNotFound
	}
	return row.ID, row.Name, err
}

// IngestRun stores run and every trajectory that trajectories yields in one
// transaction: on any error (a bad record, a duplicate pair, a cancelled ctx)
// nothing of the run is stored. A trajectory's task takes the run's domain
// when it has none. The i-th yielded trajectory is called record i in errors.
// Its provenance is "ingested" (from run.SourcePath, run.SourceSHA256).
// Memory does not grow with the number of trajectories: repeated (task,
// trial) pairs are found in the database, not in a map.
func (db *DB) IngestRun(ctx context.Context, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], onDup OnDuplicate) (IngestResult, error) {
	return db.ingestRun(ctx, 0, run, trajectories, onDup, nil)
}

// IngestStream is IngestRun for a source that is read once, such as a pipe,
// whose sha256 is known only after its last byte. sum is called after the
// last trajectory, inside the transaction, and gives run.SourceSHA256 (hex).
// When a stored run already has that sha256 the error is an
// *AlreadyIngestedError; any error from sum is returned as it is. Either
// way nothing of the run is stored.
func (db *DB) IngestStream(ctx context.Context, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], onDup OnDuplicate, sum func() (string, error)) (IngestResult, error) {
	run.SourceSHA256 = ""
	return db.ingestRun(ctx, 0, run, trajectories, onDup, sum)
}

// ingestRun is IngestRun, replacing run replace (when not 0) when it holds
// run's source sha256 (see ReplaceRun), with the sha256 from sum (when not
// nil) taken after the last trajectory (see IngestStream).
func (db *DB) ingestRun(ctx context.Context, replace int64, run emobench.Run, trajectories iter.Seq2[*emobench.Trajectory, error], onDup OnDuplicate, sum func() (string, error)) (IngestResult, error) {
	var res IngestResult
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		stmts := newStmtCache(tx)
		defer stmts.Close()
		q := sqlcdb.New(stmts)
		w := &runWriter{ctx: ctx, q: q, onDup: onDup, tasks: map[string]storedTask{}}
		replacing, err := claimSource(ctx, q, run.SourceSHA256, replace)
		if err != nil {
			return err
		}
		if res.RunID, err = w.createRun(run, Provenance{Kind: ProvenanceIngested}); err != nil {
			return err
		}
		i := 0
		for traj, err := range trajectories {
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if traj.Task.Domain == "" {
				traj.Task.Domain = run.Domain
			}
			if _, err := w.writeTrajectory(res.RunID, i, traj); err != nil {
				return fmt.Errorf("record %d: %w", i, err)
			}
			i++
		}
		res.Trajectories, res.Replaced = i-w.replaced, w.replaced
		if err := refreshRunOutcomes(ctx, q, res.RunID); err != nil {
			return err
		}
		if sum != nil {
			s, err := sum()
			if err != nil {
				return err
			}
			if replacing, err = claimSource(ctx, q, s, replace); err != nil {
				return err
			}
			if err := q.SetRunSourceSHA256(ctx, sqlcdb.SetRunSourceSHA256Params{SourceSha256: nullString(s), ID: res.RunID}); err != nil {
				return err
			}
		}
		if replacing {
			return replaceRun(ctx, q, replace, res.RunID)
		}
		return nil
	})
	if err != nil {
		return IngestResult{}, err
	}
	return res, nil
}

// claimSource makes the source sha256 sum free for a new run: an
// *AlreadyIngestedError when a stored run holds it, unless that run is
// replace, whose sha256 it then detaches (replacing is true). An empty sum
// names no source.
func claimSource(ctx context.Context, q *sqlcdb.Queries, sum string, replace int64) (replacing bool, err error) {
	if sum == "" {
		return false, nil
	}
	row, err := q.FindRunBySHA256(ctx, sql.NullString{String: sum, Valid: true})
	switch {
	case err == nil && replace != 0 && row.ID == replace:
		return true, q.DetachRunSource(ctx, replace)
	case err == nil:
		return false, &AlreadyIngestedError{RunID: row.ID, Name: row.Name}
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	}
	return false, err
}

type pairKey struct {
	taskKey string
	trial   int
}

// seenPair is where a (task key, trial) pair was first stored.
type seenPair struct {
	index  int
	taskID int64
}

// maxCachedTasks bounds runWriter.tasks, so that a file of many distinct
// tasks does not hold them all in memory.
const maxCachedTasks = 1024

// runWriter writes one run's rows inside an open transaction.
type runWriter struct {
	ctx   context.Context
	q     *sqlcdb.Queries
	onDup OnDuplicate
	// seen holds where each (task key, trial) pair was first stored. When
	// it is nil (IngestRun), pairs are looked up in the database instead,
	// so memory does not grow with the file.
	seen map[pairKey]seenPair
	// written holds the (domain, task key, trial) pairs written when seen
	// is nil: a pair it has not seen is new without a database look-up.
	written  *pairFilter
	replaced int
	// firstTrajID is the row id of record 0's trajectory. Rows of one
	// transaction get consecutive ids, so record i's row is firstTrajID+i
	// until keep-last deletes one (and only refuse reports the index).
	firstTrajID int64
	// tasks holds, by task key, the last task upserted and its row id: the
	// trials of one task repeat it, and an identical task needs neither its
	// content hash nor the upsert again. It is cleared when it reaches
	// maxCachedTasks entries.
	tasks map[string]storedTask
}

type storedTask struct {
	task emobench.Task
	id   int64
}

// createRun stores run with its provenance (only Kind and the Merged
// fields are read from prov).
func (w *runWriter) createRun(run emobench.Run, prov Provenance) (int64, error) {
	config := run.Config
	if len(config) == 0 {
		config = json.RawMessage("{}")
	}
	if err := emobench.CheckJSONDepth("config", config, emobench.MaxJSONDepth); err != nil {
		return 0, err
	}
	return w.q.CreateRun(w.ctx, sqlcdb.CreateRunParams{
		Name:             run.Name,
		SourceFormat:     run.SourceFormat,
		SourcePath:       nullString(run.SourcePath),
		SourceSha256:     nullString(run.SourceSHA256),
		AgentModel:       orUnknown(run.AgentModel),
		AgentStrategy:    orUnknown(run.AgentStrategy),
		UserModel:        orUnknown(run.UserModel),
		UserStrategy:     orUnknown(run.UserStrategy),
		Domain:           orUnknown(run.Domain),
		Condition:        string(orNone(run.Condition)),
		CreatedAt:        nullTime(run.CreatedAt),
		IngestedAt:       now(),
		Config:           string(config),
		Provenance:       prov.Kind,
		MergedFrom:       nullString(prov.MergedFrom),
		MergedFromSha256: nullString(prov.MergedSHA256),
		MergedAt:         nullString(prov.MergedAt),
	})
}

// writeTrajectory stores traj as record index of run runID and returns its
// task row. The run's outcome counts are the caller's to refresh
// (refreshRunOutcomes, refreshTaskOutcomes) before the transaction ends.
func (w *runWriter) writeTrajectory(runID int64, index int, traj *emobench.Trajectory) (int64, error) {
	if err := checkDepths(traj); err != nil {
		return 0, err
	}
	taskID, err := w.upsertTask(&traj.Task)
	if err != nil {
		return 0, err
	}
	first, dup, err := w.findPair(runID, traj)
	if err != nil {
		return 0, err
	}
	if dup {
		if w.onDup != DuplicateKeepLast {
			return 0, &DuplicateError{TaskKey: traj.Task.Key, Trial: traj.Trial, Index: index, FirstIndex: first.index}
		}
		err := w.q.DeleteTrajectory(w.ctx, sqlcdb.DeleteTrajectoryParams{RunID: runID, TaskID: first.taskID, Trial: int64(traj.Trial)})
		if err != nil {
			return 0, err
		}
		w.replaced++
	}
	if w.seen != nil {
		w.seen[pairKey{traj.Task.Key, traj.Trial}] = seenPair{index: index, taskID: taskID}
	} else {
		w.pairs().add(traj)
	}
	trajID, err := w.q.CreateTrajectory(w.ctx, trajectoryParams(runID, taskID, traj))
	if err != nil {
		return 0, err
	}
	if index == 0 {
		w.firstTrajID = trajID
	}
	for idx, m := range traj.Messages {
		if err := w.q.CreateMessage(w.ctx, messageParams(trajID, idx, m)); err != nil {
			return 0, fmt.Errorf("message %d: %w", idx, err)
		}
	}
	return taskID, nil
}

// checkDepths returns an error naming the first JSON field of traj that
// is nested deeper than a column takes (emobench.MaxJSONDepth; a tool
// call's arguments emobench.MaxToolArgumentsDepth), which SQLite would
// refuse with a bare CHECK constraint error. Readers and the LLM agent
// flag deep arguments as malformed before this.
func checkDepths(traj *emobench.Trajectory) error {
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"reward_info", traj.RewardInfo}, {"extra", traj.Extra},
		{"task.actions", traj.Task.Actions}, {"task.outputs", traj.Task.Outputs}, {"task.scenario", traj.Task.Scenario},
	} {
		if err := emobench.CheckJSONDepth(f.name, f.raw, emobench.MaxJSONDepth); err != nil {
			return err
		}
	}
	for i, m := range traj.Messages {
		for j, c := range m.ToolCalls {
			if err := emobench.CheckJSONDepth(fmt.Sprintf("messages[%d].tool_calls[%d].arguments", i, j), c.Arguments, emobench.MaxToolArgumentsDepth); err != nil {
				return err
			}
		}
	}
	return nil
}

// findPair returns where the run already holds traj's (task key, trial)
// pair, if it does.
func (w *runWriter) findPair(runID int64, traj *emobench.Trajectory) (seenPair, bool, error) {
	if w.seen != nil {
		first, dup := w.seen[pairKey{traj.Task.Key, traj.Trial}]
		return first, dup, nil
	}
	if !w.pairs().mayHold(traj) {
		return seenPair{}, false, nil
	}
	row, err := w.q.FindRunTrajectoryByTaskKey(w.ctx, sqlcdb.FindRunTrajectoryByTaskKeyParams{
		Domain: orUnknown(traj.Task.Domain), TaskKey: traj.Task.Key, RunID: runID, Trial: int64(traj.Trial),
	})
	if errors.Is(err, sql.ErrNoRows) {
		return seenPair{}, false, nil
	}
	if err != nil {
		return seenPair{}, false, err
	}
	return seenPair{index: int(row.ID - w.firstTrajID), taskID: row.TaskID}, true, nil
}

// pairs returns w.written, which it makes on first use.
func (w *runWriter) pairs() *pairFilter {
	if w.written == nil {
		w.written = newPairFilter()
	}
	return w.written
}

// pairFilterBits is the size of a pairFilter: 2^24 bits, 2 MiB, whatever
// the file's size. With pairFilterProbes probes, 1,000,000 pairs give about
// 0.4% false positives (each costs one database look-up).
const (
	pairFilterBits   = 1 << 24
	pairFilterProbes = 3
)

// pairFilter is a Bloom filter of (domain, task key, trial) pairs: mayHold
// is true for every pair added, and for few others.
type pairFilter struct {
	seed maphash.Seed
	bits []uint64
}

func newPairFilter() *pairFilter {
	return &pairFilter{seed: maphash.MakeSeed(), bits: make([]uint64, pairFilterBits/64)}
}

// probes returns the bit indexes of traj's pair (double hashing).
func (f *pairFilter) probes(traj *emobench.Trajectory) [pairFilterProbes]uint32 {
	var h maphash.Hash
	h.SetSeed(f.seed)
	h.WriteString(orUnknown(traj.Task.Domain))
	h.WriteByte(0)
	h.WriteString(traj.Task.Key)
	h.WriteByte(0)
	h.WriteString(strconv.Itoa(traj.Trial))
	sum := h.Sum64()
	h1, h2 := uint32(sum), uint32(sum>>32)|1
	var p [pairFilterProbes]uint32
	for i := range p {
		p[i] = (h1 + uint32(i)*h2) % pairFilterBits
	}
	return p
}

func (f *pairFilter) add(traj *emobench.Trajectory) {
	for _, i := range f.probes(traj) {
		f.bits[i/64] |= 1 << (i % 64)
	}
}

func (f *pairFilter) mayHold(traj *emobench.Trajectory) bool {
	for _, i := range f.probes(traj) {
		if f.bits[i/64]&(1<<(i%64)) == 0 {
			return false
		}
	}
	return true
}

func (w *runWriter) upsertTask(t *emobench.Task) (int64, error) {
	if st, ok := w.tasks[t.Key]; ok && sameTask(&st.task, t) {
		return st.id, nil
	}
	sum, pair, err := t.Hashes()
	if err != nil {
		return 0, err
	}
	id, err := w.q.UpsertTask(w.ctx, sqlcdb.UpsertTaskParams{
		Domain:        orUnknown(t.Domain),
		TaskKey:       t.Key,
		Instruction:   t.Instruction,
		UserID:        t.UserID,
		EmotionFamily: nullString(t.Emotion.Family),
		EmotionLeaf:   nullString(t.Emotion.Leaf),
		Politeness:    nullString(t.Emotion.Politeness),
		Urgency:       nullString(t.Emotion.Urgency),
		Trust:         nullString(t.Emotion.Trust),
		Actions:       string(orJSON(t.Actions, "[]")),
		Outputs:       string(orJSON(t.Outputs, "[]")),
		ContentSha256: sum,
		Split:         nullString(string(t.Split)),
		Scenario:      nullJSON(t.Scenario),
		PairSha256:    nullString(pair),
	})
	if err != nil {
		return 0, err
	}
	if len(w.tasks) >= maxCachedTasks {
		clear(w.tasks)
	}
	st := storedTask{task: *t, id: id}
	st.task.Actions, st.task.Outputs = bytes.Clone(t.Actions), bytes.Clone(t.Outputs)
	st.task.Scenario = bytes.Clone(t.Scenario)
	w.tasks[t.Key] = st
	return id, nil
}

// sameTask reports whether a and b are equal in every field, raw JSON byte by
// byte, so that upserting b after a would change nothing. It compares the
// whole struct, so a field added to emobench.Task is never skipped.
func sameTask(a, b *emobench.Task) bool {
	return reflect.DeepEqual(a, b)
}

func trajectoryParams(runID, taskID int64, t *emobench.Trajectory) sqlcdb.CreateTrajectoryParams {
	c := t.Counts()
	return sqlcdb.CreateTrajectoryParams{
		RunID:             runID,
		TaskID:            taskID,
		Trial:             int64(t.Trial),
		Reward:            nullFloat(t.Reward),
		Passed:            boolInt(t.Passed()),
		Evaluated:         boolInt(t.Evaluated),
		TerminationReason: string(orUnknownReason(t.TerminationReason)),
		AgentCost:         nullFloat(t.AgentCost),
		UserCost:          nullFloat(t.UserCost),
		NMessages:         int64(c.Messages),
		NUserTurns:        int64(c.UserTurns),
		NAgentTurns:       int64(c.AgentTurns),
		NToolCalls:        int64(c.ToolCalls),
		NToolErrors:       int64(c.ToolErrors),
		Error:             nullString(t.Error),
		RewardInfo:        nullJSON(t.RewardInfo),
		Extra:             nullJSON(t.Extra),
		Seed:              nullInt(t.Seed),
		Evaluable:         boolInt(t.IsEvaluable()),
		StrictPassed:      boolInt(t.StrictPassed()),
	}
}

type storedCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Malformed bool            `json:"arguments_malformed,omitempty"`
}

func messageParams(trajID int64, idx int, m emobench.Message) sqlcdb.CreateMessageParams {
	p := sqlcdb.CreateMessageParams{
		TrajectoryID: trajID,
		Idx:          int64(idx),
		Role:         string(m.Role),
		Content:      sql.NullString{String: m.Content, Valid: true},
		ToolName:     nullString(m.ToolName),
		ToolCallID:   nullString(m.ToolCallID),
	}
	if m.Usage != nil {
		known := !m.Usage.TokensUnknown
		p.PromptTokens = sql.NullInt64{Int64: int64(m.Usage.PromptTokens), Valid: known}
		p.CompletionTokens = sql.NullInt64{Int64: int64(m.Usage.CompletionTokens), Valid: known}
		p.Cost = nullFloat(m.Usage.Cost)
	}
	if len(m.ToolCalls) == 0 {
		return p
	}
	// The first call fills the flat columns; all calls go to tool_calls.
	first := m.ToolCalls[0]
	p.ToolName = nullString(first.Name)
	p.ToolCallID = nullString(first.ID)
	p.ToolArguments = nullJSON(first.Arguments)
	calls := make([]storedCall, len(m.ToolCalls))
	for i, c := range m.ToolCalls {
		calls[i] = storedCall{ID: c.ID, Name: c.Name, Arguments: orJSON(c.Arguments, "{}"), Malformed: c.ArgumentsMalformed}
		if c.ArgumentsMalformed {
			p.ArgumentsMalformed = 1
		}
	}
	if b, err := json.Marshal(calls); err == nil {
		p.ToolCalls = sql.NullString{String: string(b), Valid: true}
	}
	return p
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func nullJSON(raw json.RawMessage) sql.NullString {
	if len(raw) == 0 || string(raw) == "null" {
		return sql.NullString{}
	}
	return sql.NullString{String: string(raw), Valid: true}
}

func nullInt(v *int64) sql.NullInt64 {
	if v == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *v, Valid: true}
}

func nullFloat(f *float64) sql.NullFloat64 {
	if f == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *f, Valid: true}
}

func nullTime(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: t.UTC().Format(time.RFC3339), Valid: true}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func orNone(c emobench.Condition) emobench.Condition {
	if c == "" {
		return emobench.ConditionNone
	}
	return c
}

func orUnknownReason(r emobench.TerminationReason) emobench.TerminationReason {
	if r == "" {
		return emobench.TerminationUnknown
	}
	return r
}

func orJSON(raw json.RawMessage, empty string) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(empty)
	}
	return raw
}
