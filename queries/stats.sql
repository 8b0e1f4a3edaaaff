-- name: ListTaskTrials :many
-- One row per (run, task key) with the fields stats can group by.
SELECT
    o.run_id, o.task_id, o.trials, o.passes, o.abandoned,
    r.domain, r.agent_model, r.user_model, r.condition,
    o.emotion_family, o.emotion_leaf, o.politeness, o.urgency, o.trust
FROM task_outcomes o
JOIN runs r ON r.id = o.run_id
ORDER BY o.run_id, o.task_key;
