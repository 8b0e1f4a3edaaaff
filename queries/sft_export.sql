-- name: FindSelectionByName :one
SELECT id FROM selections WHERE name = ?;

-- name: ListSelectionExportTrajectories :many
-- The trajectories of one selection, with what tracer export needs to
-- choose their domain's policy and tools, by id.
SELECT t.id, t.run_id, r.domain AS run_domain, r.source_format, r.condition, k.emotion_family
FROM selection_trajectories s
JOIN trajectories t ON t.id = s.trajectory_id
JOIN runs r ON r.id = t.run_id
JOIN tasks k ON k.id = t.task_id
WHERE s.selection_id = ?
ORDER BY t.id;

-- name: ListRunExportTrajectories :many
-- Every trajectory of one run, with the columns of
-- ListSelectionExportTrajectories, by id.
SELECT t.id, t.run_id, r.domain AS run_domain, r.source_format, r.condition, k.emotion_family
FROM trajectories t
JOIN runs r ON r.id = t.run_id
JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?
ORDER BY t.id;
