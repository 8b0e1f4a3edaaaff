-- Schema version 10: trajectories.termination_reason also allows
-- user_transfer and user_out_of_scope, the user's own stops of τ²-bench
-- (###TRANSFER###, ###OUT-OF-SCOPE###). Earlier versions stored them as
-- user_stop, to be told apart by the last user message: this migration
-- gives those rows their reason.
--
-- SQLite cannot change a CHECK in place, so trajectories is rebuilt with
-- its columns in their order, ids kept. Migrations run in a transaction
-- with foreign keys on, where dropping trajectories would cascade to its
-- messages: messages is rebuilt beside it (referring to the new table,
-- which the rename below rewrites to trajectories) and the old tables are
-- dropped child first. run_task_outcomes refers to runs and tasks only and
-- is untouched; trajectory_outcomes, the one view over trajectories, is
-- dropped and created again unchanged.

DROP VIEW trajectory_outcomes;

CREATE TABLE trajectories_v10 (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    task_id            INTEGER NOT NULL REFERENCES tasks(id),
    trial              INTEGER NOT NULL,
    reward             REAL,
    passed             INTEGER NOT NULL CHECK (passed IN (0, 1)),
    evaluated          INTEGER NOT NULL CHECK (evaluated IN (0, 1)),
    termination_reason TEXT    NOT NULL CHECK (termination_reason IN
        ('user_stop', 'user_unsatisfied', 'user_transfer', 'user_out_of_scope',
         'transfer', 'agent_stop', 'max_steps', 'too_many_errors', 'error', 'unknown')),
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
    seed               INTEGER, -- episode seed of native runs
    evaluable          INTEGER NOT NULL DEFAULT 1 CHECK (evaluable IN (0, 1)),
    UNIQUE (run_id, task_id, trial)
);

-- A user_stop whose last user message holds ###TRANSFER### is a
-- user_transfer, else one holding ###OUT-OF-SCOPE### a user_out_of_scope
-- (emobench.Trajectory.UserStopReason, which read them until now).
INSERT INTO trajectories_v10 (id, run_id, task_id, trial, reward, passed, evaluated, termination_reason,
    agent_cost, user_cost, n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors,
    error, reward_info, extra, seed, evaluable)
SELECT t.id, t.run_id, t.task_id, t.trial, t.reward, t.passed, t.evaluated,
    CASE
        WHEN t.termination_reason <> 'user_stop' THEN t.termination_reason
        ELSE COALESCE((
            SELECT CASE
                WHEN instr(m.content, '###TRANSFER###') > 0 THEN 'user_transfer'
                WHEN instr(m.content, '###OUT-OF-SCOPE###') > 0 THEN 'user_out_of_scope'
            END
            FROM messages m
            WHERE m.trajectory_id = t.id AND m.role = 'user'
            ORDER BY m.idx DESC LIMIT 1
        ), 'user_stop')
    END,
    t.agent_cost, t.user_cost, t.n_messages, t.n_user_turns, t.n_agent_turns, t.n_tool_calls, t.n_tool_errors,
    t.error, t.reward_info, t.extra, t.seed, t.evaluable
FROM trajectories t;

CREATE TABLE messages_v10 (
    id                  INTEGER PRIMARY KEY,
    trajectory_id       INTEGER NOT NULL REFERENCES trajectories_v10(id) ON DELETE CASCADE,
    idx                 INTEGER NOT NULL,
    role                TEXT    NOT NULL,
    content             TEXT,
    tool_name           TEXT,
    tool_call_id        TEXT,
    tool_arguments      TEXT CHECK (tool_arguments IS NULL OR json_valid(tool_arguments)),
    tool_calls          TEXT CHECK (tool_calls IS NULL OR json_valid(tool_calls)),
    arguments_malformed INTEGER NOT NULL DEFAULT 0,
    prompt_tokens       INTEGER, -- LLM-written messages only
    completion_tokens   INTEGER,
    cost                REAL,    -- USD; NULL = unknown
    UNIQUE (trajectory_id, idx)
);

INSERT INTO messages_v10 (id, trajectory_id, idx, role, content, tool_name, tool_call_id, tool_arguments,
    tool_calls, arguments_malformed, prompt_tokens, completion_tokens, cost)
SELECT id, trajectory_id, idx, role, content, tool_name, tool_call_id, tool_arguments,
    tool_calls, arguments_malformed, prompt_tokens, completion_tokens, cost
FROM messages;

DROP TABLE messages;
DROP TABLE trajectories;
ALTER TABLE trajectories_v10 RENAME TO trajectories;
ALTER TABLE messages_v10 RENAME TO messages;

-- The stats queries group trajectories by run and task, counting passes.
CREATE INDEX trajectories_run_task ON trajectories (run_id, task_id, trial, passed);
CREATE INDEX trajectories_task ON trajectories (task_id);
CREATE INDEX trajectories_termination ON trajectories (run_id, termination_reason);

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
