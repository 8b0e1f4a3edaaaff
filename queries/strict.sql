-- Strict scoring: per-trajectory strict_passed (a pass with every recorded
-- check passed, emobench.Trajectory.StrictPassed) and its per-(run, task)
-- count in run_task_outcomes.strict_passes, kept current on every write.

-- name: UpdateStrictPasses :exec
-- Recounts strict_passes of run run_id on the task rows
-- from_task_id..to_task_id, after InsertRunOutcomes with the same range.
UPDATE run_task_outcomes SET strict_passes = (
    SELECT COUNT(*) FROM trajectories t
    WHERE t.run_id = run_task_outcomes.run_id AND t.task_id = run_task_outcomes.task_id
      AND t.evaluable = run_task_outcomes.evaluable AND t.strict_passed = 1
)
WHERE run_task_outcomes.run_id = sqlc.arg(run_id) AND run_task_outcomes.task_id >= sqlc.arg(from_task_id)
  AND run_task_outcomes.task_id <= sqlc.arg(to_task_id);

-- name: ListRunTaskStrictCounts :many
-- ListRunTaskCounts with strict passes for passes: the same rows, in the
-- same order, with the same columns.
SELECT run_id, task_id, trials, strict_passes AS passes, evaluated
FROM run_task_outcomes
WHERE evaluable >= sqlc.arg(only_evaluable)
  AND run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT)))
ORDER BY run_id, task_id, evaluable;

-- name: ListAllRunTaskStrictCounts :many
-- ListAllRunTaskCounts with strict passes for passes.
SELECT run_id, task_id, trials, strict_passes AS passes, evaluated
FROM run_task_outcomes
ORDER BY run_id, task_id, evaluable;

-- name: ListAllEvaluableRunTaskStrictCounts :many
-- ListAllEvaluableRunTaskCounts with strict passes for passes.
SELECT run_id, task_id, trials, strict_passes AS passes, evaluated
FROM run_task_outcomes
WHERE evaluable = 1
ORDER BY run_id, task_id, evaluable;

-- name: ListStrictPassRows :many
-- Every row's strict_passes, for consistency checks.
SELECT run_id, task_id, evaluable, strict_passes
FROM run_task_outcomes
ORDER BY run_id, task_id, evaluable;

-- name: RecountStrictPassRows :many
-- What strict_passes should hold, counted from every trajectory.
SELECT run_id, task_id, evaluable, CAST(SUM(strict_passed) AS INTEGER) AS strict_passes
FROM trajectories
GROUP BY run_id, task_id, evaluable
ORDER BY run_id, task_id, evaluable;
