-- name: CreateRun :one
INSERT INTO runs (
    name, source_format, source_path, source_sha256, agent_model, agent_strategy,
    user_model, user_strategy, domain, condition, created_at, ingested_at, config,
    provenance, merged_from, merged_from_sha256, merged_at
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: FindRunBySHA256 :one
SELECT id, name FROM runs WHERE source_sha256 = ?;

-- name: FindRunProvenanceBySHA256 :one
SELECT id, name, provenance, source_path, source_sha256, ingested_at,
       merged_from, merged_from_sha256, merged_at
FROM runs WHERE source_sha256 = ?;

-- name: ListRunProvenance :many
SELECT id, name, provenance, source_path, source_sha256, ingested_at,
       merged_from, merged_from_sha256, merged_at
FROM runs ORDER BY id;

-- name: DetachRunSource :exec
-- Frees a run's source_sha256 (unique) for the run that replaces it.
UPDATE runs SET source_sha256 = NULL WHERE id = ?;

-- name: FindRunTags :one
SELECT train_domains, base_run_id FROM runs WHERE id = ?;

-- name: RebaseRuns :exec
UPDATE runs SET base_run_id = sqlc.arg(new_id) WHERE base_run_id = sqlc.arg(old_id);

-- name: SetRunSourceSHA256 :exec
UPDATE runs SET source_sha256 = ? WHERE id = ?;

-- name: FindRunsByName :many
SELECT id FROM runs WHERE name = ? ORDER BY id;

-- name: FindRunByID :one
SELECT id FROM runs WHERE id = ?;

-- name: ListRunSummaries :many
SELECT
    r.id, r.name, r.source_format, r.agent_model, r.agent_strategy, r.user_model,
    r.user_strategy, r.domain, r.condition, r.created_at, r.ingested_at,
    s.tasks, s.min_trials, s.max_trials, s.trajectories, s.pass_hat_1, s.abandoned
FROM runs r
JOIN run_summaries s ON s.run_id = r.id
ORDER BY r.id;

-- name: CountRunTrials :many
-- The number of distinct trial values of each run: n in tau-bench v1 pass^k.
SELECT run_id, COUNT(DISTINCT trial) AS trials
FROM trajectories
GROUP BY run_id;

-- name: ListRunTrialNumbers :many
-- Each run's distinct trial values and their range, to check tau-bench v1's n.
SELECT run_id, COUNT(DISTINCT trial) AS trials,
       CAST(MIN(trial) AS INTEGER) AS first_trial, CAST(MAX(trial) AS INTEGER) AS last_trial
FROM trajectories
GROUP BY run_id;

-- name: TagRun :exec
UPDATE runs SET train_domains = ?, base_run_id = ? WHERE id = ?;

-- name: ListRunTags :many
SELECT id, name, agent_model, domain, condition, train_domains, base_run_id
FROM runs ORDER BY id;

-- name: ListRuns :many
SELECT id, name, source_format, source_path, source_sha256, agent_model, agent_strategy,
       user_model, user_strategy, domain, condition, created_at, config, train_domains
FROM runs ORDER BY id;

-- name: UpdateRunMetadata :exec
-- Fields left NULL keep their value.
UPDATE runs SET
    name        = COALESCE(sqlc.narg(name), name),
    agent_model = COALESCE(sqlc.narg(agent_model), agent_model),
    user_model  = COALESCE(sqlc.narg(user_model), user_model),
    condition   = COALESCE(sqlc.narg(condition), condition)
WHERE id = sqlc.arg(id);

-- name: DeleteRun :execrows
DELETE FROM runs WHERE id = ?;

-- name: DeleteOrphanTasks :execrows
-- Tasks no trajectory refers to any more (after DeleteRun).
DELETE FROM tasks WHERE NOT EXISTS (SELECT 1 FROM trajectories t WHERE t.task_id = tasks.id);

-- name: ListRunConfigs :many
SELECT id, config FROM runs ORDER BY id;

-- name: UpdateRunConfig :exec
UPDATE runs SET config = ? WHERE id = ?;

-- name: ListRunRewards :many
-- Per run with trajectories: evaluated trajectories, partial-credit rewards
-- (evaluated, neither a pass, 0, nor an abandonment's -1), and the mean
-- reward: the mean over tasks (by task_key, as task_outcomes) of the mean
-- credit of the task's trajectories, where credit is an evaluated
-- trajectory's reward, or 0 when it is negative or the trajectory is not
-- evaluated. Read from run_task_outcomes. out_of_range counts the
-- evaluated trajectories whose reward is outside [-1, 1], which weigh on
-- the mean reward beyond any rate.
SELECT
    o.run_id                                          AS run_id,
    CAST(SUM(o.evaluated) AS INTEGER)                 AS evaluated,
    CAST(SUM(o.partial) AS INTEGER)                   AS partial,
    CAST(AVG(o.credit / o.trials) AS REAL)            AS mean_reward,
    CAST((SELECT COUNT(*) FROM trajectories x
          WHERE x.run_id = o.run_id AND x.evaluated = 1 AND (x.reward > 1 OR x.reward < -1)) AS INTEGER) AS out_of_range
FROM (
    SELECT t.run_id, k.task_key,
           SUM(t.evaluated) AS evaluated, SUM(t.partial) AS partial,
           CAST(SUM(t.credit) AS REAL) AS credit, SUM(t.trials) AS trials
    FROM run_task_outcomes t
    JOIN tasks k ON k.id = t.task_id
    GROUP BY t.run_id, k.task_key
) o
GROUP BY o.run_id
ORDER BY o.run_id;

-- name: CountRunRewardKinds :one
-- Trajectories of a run without reward information, and evaluated ones with
-- a reward that is neither a pass (1 +- 1e-6), 0, nor an abandonment's -1.
SELECT
    CAST(COALESCE(SUM(trials - evaluated), 0) AS INTEGER) AS unevaluated,
    CAST(COALESCE(SUM(partial), 0) AS INTEGER) AS partial,
    CAST(COALESCE(SUM(trials), 0) AS INTEGER) AS total
FROM run_task_outcomes WHERE run_id = ?;

-- name: CountRunEmotionProfiles :many
-- A run's tasks by emotion family and leaf (NULLs as '').
SELECT CAST(COALESCE(k.emotion_family, '') AS TEXT) AS family,
       CAST(COALESCE(k.emotion_leaf, '') AS TEXT) AS leaf,
       COUNT(DISTINCT k.id) AS tasks
FROM run_task_outcomes t JOIN tasks k ON k.id = t.task_id
WHERE t.run_id = ?
GROUP BY 1, 2 ORDER BY 1, 2;

-- name: CountMaintenance :one
SELECT COUNT(*) FROM maintenance WHERE task = ?;

-- name: MarkMaintenance :exec
INSERT OR REPLACE INTO maintenance (task, done_at) VALUES (?, ?);
