-- name: CreateTaskSet :one
-- A task set is one tracer generate output; its tasks follow in
-- task_set_tasks.
INSERT INTO task_sets (
    name, source, domain, split, generator_version, seed, params, rejected, created_at
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: FindTaskSetByName :one
SELECT id, name, source, domain, split, generator_version, seed, params, rejected, created_at,
       (SELECT COUNT(*) FROM task_set_tasks t WHERE t.task_set_id = task_sets.id) AS tasks
FROM task_sets
WHERE name = ?;

-- name: ListTaskSets :many
SELECT id, name, source, domain, split, generator_version, seed, params, rejected, created_at,
       (SELECT COUNT(*) FROM task_set_tasks t WHERE t.task_set_id = task_sets.id) AS tasks
FROM task_sets
ORDER BY name;

-- name: DeleteTaskSetTasks :exec
DELETE FROM task_set_tasks WHERE task_set_id = ?;

-- name: DeleteTaskSet :exec
DELETE FROM task_sets WHERE id = ?;

-- name: AddTaskSetTask :exec
INSERT INTO task_set_tasks (task_set_id, idx, task_id, spec) VALUES (?, ?, ?, ?);

-- name: ListTaskSetSpecs :many
-- The specs of a task set, in generation order.
SELECT idx, spec FROM task_set_tasks WHERE task_set_id = ? ORDER BY idx;
