-- name: ListUnevaluatedTasks :many
-- One row per (run, task key) with a trajectory without reward
-- information (evaluated = 0): how many, with task_id as ListTaskTrials
-- gives it (the smallest task row of the key in the run). Counted per task
-- row first, as task_outcomes counts.
SELECT o.run_id, CAST(MIN(o.task_id) AS INTEGER) AS task_id,
       CAST(SUM(o.unevaluated) AS INTEGER) AS unevaluated
FROM (
    SELECT run_id, task_id, SUM(evaluated = 0) AS unevaluated
    FROM trajectories
    GROUP BY run_id, task_id
) o
JOIN tasks k ON k.id = o.task_id
GROUP BY o.run_id, k.task_key
HAVING SUM(o.unevaluated) > 0;

-- name: ListUnevaluatedTasksWithoutInfraErrors :many
-- ListUnevaluatedTasks leaving out the trajectories ListTaskTrialsWithoutInfraErrors
-- leaves out (infrastructure_error, context_window_exceeded).
SELECT t.run_id, CAST(MIN(t.task_id) AS INTEGER) AS task_id,
       CAST(SUM(t.evaluated = 0) AS INTEGER) AS unevaluated
FROM trajectories t JOIN tasks k ON k.id = t.task_id
WHERE COALESCE(json_extract(t.extra, '$.termination_reason'), '')
      NOT IN ('infrastructure_error', 'context_window_exceeded')
GROUP BY t.run_id, k.task_key
HAVING SUM(t.evaluated = 0) > 0;
