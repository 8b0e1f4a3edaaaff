-- name: UpsertTask :one
-- Tasks are content-addressed: a task already stored keeps its row.
INSERT INTO tasks (
    domain, task_key, instruction, user_id, emotion_family, emotion_leaf,
    politeness, urgency, trust, actions, outputs, content_sha256, split, scenario,
    pair_sha256
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (content_sha256) DO UPDATE SET
    split = COALESCE(tasks.split, excluded.split),
    scenario = COALESCE(tasks.scenario, excluded.scenario)
RETURNING id;
