-- name: ListTaskTrials :many
-- One row per (run, task) with the fields stats can group by.
SELECT
    o.run_id, o.task_id, o.trials, o.passes, o.abandoned,
    r.domain, r.agent_model, r.user_model, r.condition,
    k.emotion_family, k.emotion_leaf, k.politeness, k.urgency, k.trust
FROM task_outcomes o
JOIN runs r  ON r.id = o.run_id
JOIN tasks k ON k.id = o.task_id
ORDER BY o.run_id, o.task_id;
