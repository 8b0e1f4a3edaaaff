-- name: FindTrajectoryRunID :one
SELECT run_id FROM trajectories WHERE id = ?;

-- name: FindTrajectory :one
-- One trajectory with its task, for emobench show: ListRunTrajectories'
-- columns in its order, so that its row converts to that query's row type.
SELECT
    t.id, t.trial, t.seed, t.reward, t.evaluated, t.evaluable, t.termination_reason,
    t.agent_cost, t.user_cost, t.error, t.reward_info, t.extra,
    k.domain, k.task_key, k.instruction, k.user_id, k.emotion_family, k.emotion_leaf,
    k.politeness, k.urgency, k.trust, k.actions, k.outputs, k.split, k.scenario
FROM trajectories t
JOIN tasks k ON k.id = t.task_id
WHERE t.id = ?;

-- name: ListTaskTrajectories :many
-- A run's trajectories of one task key (every content of it), by trial.
SELECT t.id, t.trial FROM trajectories t
JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ? AND k.task_key = ?
ORDER BY t.trial, t.id;
