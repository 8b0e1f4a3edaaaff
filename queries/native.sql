-- name: ListRunPairs :many
-- The (task, trial) pairs a run already holds.
SELECT k.task_key, t.trial
FROM trajectories t JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?;

-- name: ListFinishedPairs :many
-- The pairs --resume skips: all but those that ended in error.
SELECT k.task_key, t.trial
FROM trajectories t JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ? AND t.termination_reason <> 'error';

-- name: DeleteErroredPair :many
-- A retried pair replaces its error trajectory; the task rows whose
-- outcomes change.
DELETE FROM trajectories
WHERE run_id = ? AND trial = ? AND termination_reason = 'error'
  AND task_id IN (SELECT id FROM tasks WHERE task_key = ?)
RETURNING task_id;

-- name: FindRunConfig :one
SELECT id, name, source_format, agent_model, user_model, domain, condition, config
FROM runs WHERE id = ?;
