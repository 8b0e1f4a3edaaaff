-- name: ListRunTaskCounts :many
-- The run_task_outcomes rows of the runs run_ids, in key order; with
-- only_evaluable = 1 without those of the trajectories tau2-bench cannot
-- evaluate (evaluable = 0). ListTaskTrials groups them by task key (a
-- plain range scan; grouping in SQL, even by task row, costs more than
-- summing in Go). Only the columns pass^k reads: each one costs every row
-- a conversion; the unevaluated trials, trials - evaluated, are
-- subtracted in Go (two instructions fewer a row here).
SELECT run_id, task_id, trials, passes, evaluated
FROM run_task_outcomes
WHERE evaluable >= sqlc.arg(only_evaluable)
  AND run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT)))
ORDER BY run_id, task_id, evaluable;

-- name: ListAllRunTaskCounts :many
-- ListAllRunTaskCounts is ListRunTaskCounts of every run with
-- only_evaluable = 0: a plain scan, without listing the run ids first and
-- looking each one up, or testing a condition every row meets.
SELECT run_id, task_id, trials, passes, evaluated
FROM run_task_outcomes
ORDER BY run_id, task_id, evaluable;

-- name: ListAllEvaluableRunTaskCounts :many
-- ListAllEvaluableRunTaskCounts is ListRunTaskCounts of every run with
-- only_evaluable = 1.
SELECT run_id, task_id, trials, passes, evaluated
FROM run_task_outcomes
WHERE evaluable = 1
ORDER BY run_id, task_id, evaluable;

-- name: CountRunTaskOutcomes :one
-- The rows of run_task_outcomes, an upper bound of the (run, task key)
-- pairs ListTaskTrials lists, so that the listing is made at its size
-- rather than grown (growing it allocated five times its size). SQLite
-- counts the table's b-tree pages without reading its rows.
SELECT COUNT(*) FROM run_task_outcomes;

-- name: ListTrajectoryOutcomes :many
-- One row per trajectory of the runs run_ids with what per-trajectory
-- statistics need; the run's and task's fields come from ListOutcomeRuns
-- and ListOutcomeTasks.
SELECT
    t.id, t.run_id, t.task_id, t.trial, t.passed, t.termination_reason,
    t.n_user_turns, t.n_agent_turns, t.n_tool_calls, t.evaluated
FROM trajectories t
WHERE t.run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT)));

-- name: ListOutcomeRuns :many
SELECT id, agent_model, user_model, domain, condition FROM runs;

-- name: ListOutcomeTasks :many
-- Every task with the fields statistics group by; with all_tasks = 0, only
-- those the runs run_ids have trajectories of (all_tasks = 1 spares the
-- lookup when every run is read).
SELECT
    k.id, k.task_key, CAST(COALESCE(k.pair_sha256, k.content_sha256) AS TEXT) AS pair_key,
    CAST(COALESCE(k.emotion_family, '') AS TEXT) AS emotion_family,
    CAST(COALESCE(k.emotion_leaf, '') AS TEXT) AS emotion_leaf,
    CAST(COALESCE(k.politeness, '') AS TEXT) AS politeness,
    CAST(COALESCE(k.urgency, '') AS TEXT) AS urgency,
    CAST(COALESCE(k.trust, '') AS TEXT) AS trust
FROM tasks k
WHERE CAST(sqlc.arg(all_tasks) AS INTEGER) = 1
   OR k.id IN (SELECT o.task_id FROM run_task_outcomes o WHERE o.run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT))));

-- name: ListAgentTexts :many
-- The agent's messages to the user (no tool call), for the follow-up rule,
-- of trajectories with from_id < id <= to_id (read in batches).
SELECT m.trajectory_id, COALESCE(m.content, '') AS content
FROM messages m
WHERE m.role = 'assistant' AND m.tool_name IS NULL
  AND m.trajectory_id > sqlc.arg(from_id) AND m.trajectory_id <= sqlc.arg(to_id)
ORDER BY m.trajectory_id, m.idx;

-- name: NextTrajectoryBatchEnd :one
-- The largest id of the next batch_size trajectories after after_id;
-- after_id itself when none is left.
SELECT CAST(COALESCE(MAX(id), sqlc.arg(after_id)) AS INTEGER) AS end_id FROM (
    SELECT id FROM trajectories WHERE id > sqlc.arg(after_id) ORDER BY id LIMIT sqlc.arg(batch_size)
);

-- name: CountInfraErrors :one
-- Trajectories of the runs run_ids that tau2-bench cannot evaluate
-- (evaluable = 0: its NON_EVALUABLE_TERMINATION_REASONS, infrastructure_error
-- and context_window_exceeded).
SELECT CAST(COALESCE(SUM(trials), 0) AS INTEGER) AS n FROM run_task_outcomes
WHERE evaluable = 0 AND run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT)));

-- name: CountAllInfraErrors :one
-- CountAllInfraErrors is CountInfraErrors of every run, without the run
-- ids. Whether there is any is asked of the task_id index, which holds
-- evaluable and is narrower than the table (half the time of a sum over
-- it); the sum, when there is, reads the table by its primary key (the
-- run_id condition, true of every row): with evaluable = 0 alone SQLite
-- scanned the task_id index and looked every row up, 12,000 look-ups.
SELECT CAST(CASE
    WHEN EXISTS (SELECT 1 FROM run_task_outcomes INDEXED BY run_task_outcomes_task WHERE evaluable = 0)
    THEN (SELECT COALESCE(SUM(trials), 0) FROM run_task_outcomes
          WHERE evaluable = 0 AND run_id IN (SELECT id FROM runs))
    ELSE 0 END AS INTEGER) AS n;

-- name: ListRunErrors :many
-- The trajectories of each run that ended in error (termination_reason
-- 'error': the LLM endpoint or the harness failed, not the agent) and that
-- tau2-bench's rules do not already leave out (evaluable = 1; those are
-- CountInfraErrors'), with the run's name and provenance. The
-- trajectories_termination index finds them.
SELECT r.id AS run_id, r.name, r.provenance, CAST(COUNT(*) AS INTEGER) AS errors
FROM trajectories t JOIN runs r ON r.id = t.run_id
WHERE t.termination_reason = 'error' AND t.evaluable = 1
GROUP BY r.id
ORDER BY r.id;
