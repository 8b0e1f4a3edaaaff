-- Schema version 1. The table, view and column names are emobench's public
-- SQL interface (see README "Schema"): change them only by a new migration.

CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    name           TEXT    NOT NULL,
    source_format  TEXT    NOT NULL,
    source_path    TEXT,
    source_sha256  TEXT    UNIQUE,
    agent_model    TEXT    NOT NULL DEFAULT 'unknown',
    agent_strategy TEXT    NOT NULL DEFAULT 'unknown',
    user_model     TEXT    NOT NULL DEFAULT 'unknown',
    user_strategy  TEXT    NOT NULL DEFAULT 'unknown',
    domain         TEXT    NOT NULL DEFAULT 'unknown',
    condition      TEXT    NOT NULL DEFAULT 'none'
                   CHECK (condition IN ('with-emotions', 'without-emotions', 'none')),
    created_at     TEXT,
    ingested_at    TEXT    NOT NULL,
    config         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(config))
);

CREATE TABLE tasks (
    id             INTEGER PRIMARY KEY,
    domain         TEXT NOT NULL,
    task_key       TEXT NOT NULL,
    instruction    TEXT NOT NULL DEFAULT '',
    user_id        TEXT NOT NULL DEFAULT '',
    emotion_family TEXT,
    emotion_leaf   TEXT,
    politeness     TEXT,
    urgency        TEXT,
    trust          TEXT,
    actions        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(actions)),
    outputs        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(outputs)),
    content_sha256 TEXT NOT NULL UNIQUE
);

CREATE TABLE trajectories (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    task_id            INTEGER NOT NULL REFERENCES tasks(id),
    trial              INTEGER NOT NULL,
    reward             REAL,
    passed             INTEGER NOT NULL CHECK (passed IN (0, 1)),
    evaluated          INTEGER NOT NULL CHECK (evaluated IN (0, 1)),
    termination_reason TEXT    NOT NULL CHECK (termination_reason IN
        ('user_stop', 'user_unsatisfied', 'transfer', 'agent_stop',
         'max_steps', 'too_many_errors', 'error', 'unknown')),
    agent_cost         REAL,
    user_cost          REAL,
    n_messages         INTEGER NOT NULL,
    n_user_turns       INTEGER NOT NULL,
    n_agent_turns      INTEGER NOT NULL,
    n_tool_calls       INTEGER NOT NULL,
    n_tool_errors      INTEGER NOT NULL,
    error              TEXT,
    reward_info        TEXT CHECK (reward_info IS NULL OR json_valid(reward_info)),
    extra              TEXT CHECK (extra IS NULL OR json_valid(extra)),
    UNIQUE (run_id, task_id, trial)
);

CREATE TABLE messages (
    id                 INTEGER PRIMARY KEY,
    trajectory_id      INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    idx                INTEGER NOT NULL,
    role               TEXT    NOT NULL,
    content            TEXT,
    tool_name          TEXT,
    tool_call_id       TEXT,
    tool_arguments     TEXT CHECK (tool_arguments IS NULL OR json_valid(tool_arguments)),
    tool_calls         TEXT CHECK (tool_calls IS NULL OR json_valid(tool_calls)),
    arguments_malformed INTEGER NOT NULL DEFAULT 0,
    UNIQUE (trajectory_id, idx)
);

-- The stats queries group trajectories by run and task, counting passes.
CREATE INDEX trajectories_run_task ON trajectories (run_id, task_id, trial, passed);
CREATE INDEX trajectories_task ON trajectories (task_id);
CREATE INDEX trajectories_termination ON trajectories (run_id, termination_reason);
CREATE INDEX tasks_domain_key ON tasks (domain, task_key);

-- One row per trajectory with its run's and task's descriptive fields.
CREATE VIEW trajectory_outcomes AS
SELECT
    t.id                 AS trajectory_id,
    t.run_id             AS run_id,
    r.name               AS run,
    r.agent_model        AS agent_model,
    r.user_model         AS user_model,
    r.domain             AS domain,
    r.condition          AS condition,
    t.task_id            AS task_id,
    k.task_key           AS task_key,
    k.emotion_family     AS emotion_family,
    k.emotion_leaf       AS emotion_leaf,
    k.politeness         AS politeness,
    k.urgency            AS urgency,
    k.trust              AS trust,
    t.trial              AS trial,
    t.reward             AS reward,
    t.passed             AS passed,
    t.evaluated          AS evaluated,
    t.termination_reason AS termination_reason,
    t.agent_cost         AS agent_cost,
    t.user_cost          AS user_cost,
    t.n_messages         AS n_messages,
    t.n_user_turns       AS n_user_turns,
    t.n_agent_turns      AS n_agent_turns,
    t.n_tool_calls       AS n_tool_calls,
    t.n_tool_errors      AS n_tool_errors
FROM trajectories t
JOIN runs r  ON r.id = t.run_id
JOIN tasks k ON k.id = t.task_id;

-- One row per (run, task): trials and passes, the input of pass^k. A task
-- is its source's task id within the run (as τ-bench counts), so an error
-- record that lost its task content still counts as a trial of its task.
CREATE VIEW task_outcomes AS
SELECT
    t.run_id                                        AS run_id,
    k.task_key                                      AS task_key,
    CAST(MIN(t.task_id) AS INTEGER)                 AS task_id,
    CAST(SUM(t.trials) AS INTEGER)                  AS trials,
    CAST(SUM(t.passes) AS INTEGER)                  AS passes,
    CAST(SUM(t.abandoned) AS INTEGER)               AS abandoned,
    CAST(COALESCE(MAX(k.emotion_family), '') AS TEXT) AS emotion_family,
    CAST(COALESCE(MAX(k.emotion_leaf), '') AS TEXT)   AS emotion_leaf,
    CAST(COALESCE(MAX(k.politeness), '') AS TEXT)     AS politeness,
    CAST(COALESCE(MAX(k.urgency), '') AS TEXT)        AS urgency,
    CAST(COALESCE(MAX(k.trust), '') AS TEXT)          AS trust
FROM (
    -- Counted per task row first, in the order of trajectories_run_task;
    -- only these few rows meet tasks. (Joining every trajectory to tasks and
    -- grouping by key sorts them all: four times slower at 1M trajectories.)
    SELECT
        run_id, task_id,
        COUNT(*)                                        AS trials,
        SUM(passed)                                     AS passes,
        SUM(termination_reason = 'user_unsatisfied')    AS abandoned
    FROM trajectories
    GROUP BY run_id, task_id
) t
JOIN tasks k ON k.id = t.task_id
GROUP BY t.run_id, k.task_key;

-- One row per run: counts and pass^1 (per-task convention).
CREATE VIEW run_summaries AS
SELECT
    r.id                                 AS run_id,
    r.name                               AS run,
    r.agent_model                        AS agent_model,
    r.domain                             AS domain,
    r.condition                          AS condition,
    COUNT(o.task_id)                     AS tasks,
    CAST(COALESCE(MIN(o.trials), 0) AS INTEGER)    AS min_trials,
    CAST(COALESCE(MAX(o.trials), 0) AS INTEGER)    AS max_trials,
    CAST(COALESCE(SUM(o.trials), 0) AS INTEGER)    AS trajectories,
    AVG(CAST(o.passes AS REAL) / o.trials)         AS pass_hat_1,
    CAST(COALESCE(SUM(o.abandoned), 0) AS INTEGER) AS abandoned
FROM runs r
LEFT JOIN task_outcomes o ON o.run_id = r.id
GROUP BY r.id;
