-- The per-(run, task) counts of run_task_outcomes, rewritten from the
-- trajectories in the transaction that writes them.

-- name: DeleteRunOutcomes :exec
-- The counts of run run_id on the task rows from_task_id..to_task_id (a
-- whole run: every id; one task row: from = to), before InsertRunOutcomes.
DELETE FROM run_task_outcomes
WHERE run_id = sqlc.arg(run_id) AND task_id >= sqlc.arg(from_task_id) AND task_id <= sqlc.arg(to_task_id);

-- name: InsertRunOutcomes :exec
-- The counts of run run_id on the task rows from_task_id..to_task_id
-- (after DeleteRunOutcomes with the same range), read through
-- trajectories_run_task.
INSERT INTO run_task_outcomes (run_id, task_id, evaluable, trials, passes, abandoned, evaluated, partial, credit)
SELECT t.run_id, t.task_id, t.evaluable,
       COUNT(*), SUM(t.passed), SUM(t.termination_reason = 'user_unsatisfied'), SUM(t.evaluated),
       SUM(t.evaluated = 1 AND t.reward IS NOT NULL AND t.passed = 0 AND t.reward <> 0 AND t.reward <> -1),
       TOTAL(CASE WHEN t.evaluated = 1 AND t.reward > 0 THEN t.reward ELSE 0.0 END)
FROM trajectories t
WHERE t.run_id = sqlc.arg(run_id) AND t.task_id >= sqlc.arg(from_task_id) AND t.task_id <= sqlc.arg(to_task_id)
GROUP BY t.run_id, t.task_id, t.evaluable;

-- name: ListRunTaskOutcomeRows :many
-- Every row of run_task_outcomes, for consistency checks.
SELECT run_id, task_id, evaluable, trials, passes, abandoned, evaluated, partial, credit
FROM run_task_outcomes
ORDER BY run_id, task_id, evaluable;

-- name: RecountRunTaskOutcomeRows :many
-- What run_task_outcomes should hold, counted from every trajectory.
SELECT run_id, task_id, evaluable,
       COUNT(*) AS trials, CAST(SUM(passed) AS INTEGER) AS passes,
       CAST(SUM(termination_reason = 'user_unsatisfied') AS INTEGER) AS abandoned,
       CAST(SUM(evaluated) AS INTEGER) AS evaluated,
       CAST(SUM(evaluated = 1 AND reward IS NOT NULL AND passed = 0 AND reward <> 0 AND reward <> -1) AS INTEGER) AS partial,
       CAST(TOTAL(CASE WHEN evaluated = 1 AND reward > 0 THEN reward ELSE 0.0 END) AS REAL) AS credit
FROM trajectories
GROUP BY run_id, task_id, evaluable
ORDER BY run_id, task_id, evaluable;

-- name: ListRunIDs :many
SELECT id FROM runs ORDER BY id;
