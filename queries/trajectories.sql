-- name: CreateTrajectory :execlastid
-- Not RETURNING id: SQLite runs RETURNING as a trigger, which makes every
-- insert copy the pages it changes to a statement journal.
INSERT INTO trajectories (
    run_id, task_id, trial, reward, passed, evaluated, termination_reason,
    agent_cost, user_cost, n_messages, n_user_turns, n_agent_turns,
    n_tool_calls, n_tool_errors, error, reward_info, extra, seed, evaluable,
    strict_passed
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: FindRunTrajectoryByTaskKey :one
-- The trajectory of a run for one (task key, trial), whatever its task's
-- content; tasks_domain_key and the (run_id, task_id, trial) key find it.
SELECT t.id, t.task_id FROM tasks k
JOIN trajectories t ON t.task_id = k.id
WHERE k.domain = ? AND k.task_key = ? AND t.run_id = ? AND t.trial = ?
LIMIT 1;

-- name: DeleteTrajectory :exec
DELETE FROM trajectories WHERE run_id = ? AND task_id = ? AND trial = ?;

-- name: CreateMessage :exec
INSERT INTO messages (
    trajectory_id, idx, role, content, tool_name, tool_call_id,
    tool_arguments, tool_calls, arguments_malformed,
    prompt_tokens, completion_tokens, cost
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: ListRunTrajectories :many
-- A run's trajectories with their tasks, for export and merge.
SELECT
    t.id, t.trial, t.seed, t.reward, t.evaluated, t.evaluable, t.termination_reason,
    t.agent_cost, t.user_cost, t.error, t.reward_info, t.extra,
    k.domain, k.task_key, k.instruction, k.user_id, k.emotion_family, k.emotion_leaf,
    k.politeness, k.urgency, k.trust, k.actions, k.outputs, k.split, k.scenario
FROM trajectories t
JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?
ORDER BY t.id;

-- name: ListRunTrajectoriesV8 :many
-- ListRunTrajectories of a file of schema 2 to 8 (a merge source, read as
-- it is), with evaluable as migration 9 backfills it.
SELECT
    t.id, t.trial, t.seed, t.reward, t.evaluated,
    CAST(COALESCE(json_extract(t.extra, '$.termination_reason'), '')
         NOT IN ('infrastructure_error', 'context_window_exceeded') AS INTEGER) AS evaluable,
    t.termination_reason,
    t.agent_cost, t.user_cost, t.error, t.reward_info, t.extra,
    k.domain, k.task_key, k.instruction, k.user_id, k.emotion_family, k.emotion_leaf,
    k.politeness, k.urgency, k.trust, k.actions, k.outputs, k.split, k.scenario
FROM trajectories t
JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?
ORDER BY t.id;

-- name: ListTrajectoryMessages :many
SELECT idx, role, content, tool_name, tool_call_id, tool_calls,
       prompt_tokens, completion_tokens, cost
FROM messages
WHERE trajectory_id = ?
ORDER BY idx;

-- name: ListTrajectoryTexts :many
-- The source JSON and text a trajectory keeps as given, in id batches.
SELECT id, extra, reward_info, error FROM trajectories
WHERE id > sqlc.arg(after_id) ORDER BY id LIMIT sqlc.arg(batch_size);

-- name: UpdateTrajectoryTexts :exec
UPDATE trajectories SET extra = ?, reward_info = ?, error = ? WHERE id = ?;

-- name: ListMessageContents :many
-- Message texts in id batches, for one-time redaction.
SELECT id, content FROM messages
WHERE id > sqlc.arg(after_id) AND content IS NOT NULL AND content <> ''
ORDER BY id LIMIT sqlc.arg(batch_size);

-- name: UpdateMessageContent :exec
UPDATE messages SET content = ? WHERE id = ?;
