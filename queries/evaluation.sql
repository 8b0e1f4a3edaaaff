-- name: ListUnevaluatedTasks :many
-- One row per (run, task key) with a trajectory without reward
-- information (evaluated = 0): how many, with task_id as ListTaskTrials
-- gives it (the smallest task row of the key in the run). With
-- only_evaluable = 1, as ListTaskTrialsWithoutInfraErrors: the trajectories
-- tau2-bench cannot evaluate (evaluable = 0) are left out.
SELECT t.run_id, CAST(MIN(t.task_id) AS INTEGER) AS task_id,
       CAST(SUM(t.trials - t.evaluated) AS INTEGER) AS unevaluated
FROM run_task_outcomes t JOIN tasks k ON k.id = t.task_id
WHERE t.evaluable >= sqlc.arg(only_evaluable)
GROUP BY t.run_id, k.task_key
HAVING SUM(t.trials - t.evaluated) > 0;
