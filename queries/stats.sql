-- name: ListTaskTrials :many
-- One row per (run, task key) with the fields stats can group by.
SELECT
    o.run_id, o.task_id, o.trials, o.passes, o.abandoned,
    r.domain, r.agent_model, r.user_model, r.condition,
    o.emotion_family, o.emotion_leaf, o.politeness, o.urgency, o.trust
FROM task_outcomes o
JOIN runs r ON r.id = o.run_id
ORDER BY o.run_id, o.task_key;

-- name: ListTrajectoryOutcomes :many
-- One row per trajectory with what per-trajectory statistics need; the
-- run's and task's fields come from ListOutcomeRuns and ListOutcomeTasks.
SELECT
    t.id, t.run_id, t.task_id, t.trial, t.passed, t.termination_reason,
    t.n_user_turns, t.n_agent_turns, t.n_tool_calls, t.evaluated
FROM trajectories t;

-- name: ListOutcomeRuns :many
SELECT id, agent_model, user_model, domain, condition FROM runs;

-- name: ListOutcomeTasks :many
SELECT
    k.id, k.task_key, CAST(COALESCE(k.pair_sha256, k.content_sha256) AS TEXT) AS pair_key,
    CAST(COALESCE(k.emotion_family, '') AS TEXT) AS emotion_family,
    CAST(COALESCE(k.emotion_leaf, '') AS TEXT) AS emotion_leaf,
    CAST(COALESCE(k.politeness, '') AS TEXT) AS politeness,
    CAST(COALESCE(k.urgency, '') AS TEXT) AS urgency,
    CAST(COALESCE(k.trust, '') AS TEXT) AS trust
FROM tasks k;

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

-- name: ListTaskTrialsWithoutInfraErrors :many
-- ListTaskTrials leaving out trajectories that tau2-bench cannot evaluate:
-- its NON_EVALUABLE_TERMINATION_REASONS, infrastructure_error and
-- context_window_exceeded (stats passk --infra-errors exclude).
SELECT
    o.run_id, o.task_id, o.trials, o.passes, o.abandoned,
    r.domain, r.agent_model, r.user_model, r.condition,
    CAST(COALESCE(k.emotion_family, '') AS TEXT) AS emotion_family,
    CAST(COALESCE(k.emotion_leaf, '') AS TEXT) AS emotion_leaf,
    CAST(COALESCE(k.politeness, '') AS TEXT) AS politeness,
    CAST(COALESCE(k.urgency, '') AS TEXT) AS urgency,
    CAST(COALESCE(k.trust, '') AS TEXT) AS trust
FROM (
    SELECT t.run_id, CAST(MIN(t.task_id) AS INTEGER) AS task_id, k2.task_key,
           COUNT(*) AS trials, CAST(SUM(t.passed) AS INTEGER) AS passes,
           CAST(SUM(t.termination_reason = 'user_unsatisfied') AS INTEGER) AS abandoned
    FROM trajectories t JOIN tasks k2 ON k2.id = t.task_id
    WHERE COALESCE(json_extract(t.extra, '$.termination_reason'), '')
          NOT IN ('infrastructure_error', 'context_window_exceeded')
    GROUP BY t.run_id, k2.task_key
) o
JOIN runs r ON r.id = o.run_id
JOIN tasks k ON k.id = o.task_id
ORDER BY o.run_id, o.task_key;

-- name: CountInfraErrors :many
-- Trajectories per run that tau2-bench cannot evaluate (see above).
SELECT run_id, COUNT(*) AS n FROM trajectories
WHERE json_extract(extra, '$.termination_reason') IN ('infrastructure_error', 'context_window_exceeded')
GROUP BY run_id;
