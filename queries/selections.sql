-- name: ListFilterTrajectories :many
-- The trajectories of the runs run_ids with what the filter reads: the
-- run, its domain, condition and source format, the task's key, emotion family and whether
-- it has a scenario and its split, the reward and the stored user
-- dependence.
SELECT
    t.id, t.run_id, r.domain, r.condition, r.source_format, k.task_key, k.emotion_family,
    t.reward, t.evaluated, t.termination_reason, t.user_turns_per_fact,
    CAST(k.scenario IS NOT NULL AS INTEGER) AS has_scenario,
    CAST(COALESCE(k.split, '') AS TEXT) AS task_split
FROM trajectories t
JOIN runs r ON r.id = t.run_id
JOIN tasks k ON k.id = t.task_id
WHERE t.run_id IN (SELECT value FROM json_each(CAST(sqlc.arg(run_ids) AS TEXT)))
ORDER BY t.id;

-- name: FindDependenceInput :one
-- What the user dependence of trajectory id is computed from: its task's
-- key, scenario and gold actions.
SELECT k.task_key, k.scenario, k.actions
FROM trajectories t
JOIN tasks k ON k.id = t.task_id
WHERE t.id = ?;

-- name: SetUserDependence :exec
UPDATE trajectories SET
    user_turns_per_fact = ?, questions_already_answered = ?,
    questions_tool_findable = ?, follow_up_questions = ?, tool_call_share = ?
WHERE id = ?;

-- name: CreateSelection :execlastid
INSERT INTO selections (name, created_at, criteria, counts) VALUES (?, ?, ?, ?);

-- name: AddSelectionTrajectory :exec
INSERT INTO selection_trajectories (selection_id, trajectory_id) VALUES (?, ?);

-- name: DeleteSelectionByName :execrows
DELETE FROM selections WHERE name = ?;

-- name: FindSelectionRecord :one
SELECT id, name, created_at, criteria, counts FROM selections WHERE name = ?;

-- name: ListSelections :many
-- Every selection with its number of trajectories, by name.
SELECT s.id, s.name, s.created_at, s.criteria, s.counts,
       (SELECT COUNT(*) FROM selection_trajectories st WHERE st.selection_id = s.id) AS n
FROM selections s
ORDER BY s.name;

-- name: ListSelectionTrajectoryIDs :many
SELECT trajectory_id FROM selection_trajectories WHERE selection_id = ? ORDER BY trajectory_id;

-- name: CountSelections :one
SELECT COUNT(*) FROM selections;
