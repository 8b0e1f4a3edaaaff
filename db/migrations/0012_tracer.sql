-- Schema version 12: Tracer. Task sets record generated tasks with their
-- generator's version and seed; user-dependence columns let SQL users and
-- `tracer filter` query how much a trajectory leaned on the user;
-- selections are named subsets of trajectories (the kept set), not copies.

-- A task set is one `tracer generate` output stored in the db: its tasks
-- in order, each with the full TaskSpec JSON that `run` and `tracer
-- collect` replay (tasks rows keep only what analysis needs).
CREATE TABLE task_sets (
    id                INTEGER PRIMARY KEY,
    name              TEXT NOT NULL UNIQUE,
    source            TEXT NOT NULL DEFAULT 'tracer',
    domain            TEXT NOT NULL,
    split             TEXT NOT NULL CHECK (split IN ('test', 'train')),
    generator_version TEXT NOT NULL,
    seed              INTEGER NOT NULL,
    params            TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
    rejected          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rejected)),
    created_at        TEXT NOT NULL
);

CREATE TABLE task_set_tasks (
    task_set_id INTEGER NOT NULL REFERENCES task_sets(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    task_id     INTEGER NOT NULL REFERENCES tasks(id),
    spec        TEXT    NOT NULL CHECK (json_valid(spec)),
    PRIMARY KEY (task_set_id, idx)
);
CREATE INDEX task_set_tasks_task ON task_set_tasks (task_id);

-- User dependence, per trajectory; NULL until computed (imported runs
-- whose task has no scenario stay NULL).
--   user_turns_per_fact: user turns / facts the task needs from the user;
--   questions_already_answered: agent questions asking for a fact the user
--     had already given;
--   questions_tool_findable: agent questions asking for a fact a read tool
--     could have found;
--   follow_up_questions: agent turns that ask the user something;
--   tool_call_share: tool calls / (tool calls + follow-up questions).
ALTER TABLE trajectories ADD COLUMN user_turns_per_fact REAL;
ALTER TABLE trajectories ADD COLUMN questions_already_answered INTEGER;
ALTER TABLE trajectories ADD COLUMN questions_tool_findable INTEGER;
ALTER TABLE trajectories ADD COLUMN follow_up_questions INTEGER;
ALTER TABLE trajectories ADD COLUMN tool_call_share REAL;

-- A selection is a named set of trajectories: criteria and the funnel
-- counts as JSON.
CREATE TABLE selections (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    criteria   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(criteria)),
    counts     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(counts))
);

CREATE TABLE selection_trajectories (
    selection_id  INTEGER NOT NULL REFERENCES selections(id) ON DELETE CASCADE,
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    PRIMARY KEY (selection_id, trajectory_id)
);
CREATE INDEX selection_trajectories_trajectory ON selection_trajectories (trajectory_id);
