-- name: ListRunPairs :many
-- The (task, trial) pairs a run already holds: what --resume skips.
SELECT k.task_key, t.trial
FROM trajectories t JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?;

-- name: FindRunConfig :one
SELECT id, name, source_format, agent_model, user_model, domain, condition, config
FROM runs WHERE id = ?;
