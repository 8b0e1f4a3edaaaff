-- Schema version 2: what native (simulated) runs record beyond imported ones.

ALTER TABLE tasks ADD COLUMN split TEXT;              -- test | train; NULL for imported tasks
ALTER TABLE tasks ADD COLUMN scenario TEXT            -- the user's facts and requests (JSON)
    CHECK (scenario IS NULL OR json_valid(scenario));

ALTER TABLE trajectories ADD COLUMN seed INTEGER;     -- episode seed of native runs

ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;     -- LLM-written messages only
ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
ALTER TABLE messages ADD COLUMN cost REAL;                 -- USD; NULL = unknown

-- Pairs a task across conditions: sha256 of its content without the emotion
-- profile and without the instruction's "Emotion Instruction:" part.
ALTER TABLE tasks ADD COLUMN pair_sha256 TEXT;
CREATE INDEX tasks_pair ON tasks (pair_sha256);

-- Generalization metadata: the domains a tuned model was trained on, and
-- the run of its base model.
ALTER TABLE runs ADD COLUMN train_domains TEXT        -- JSON array; NULL = not a tuned model
    CHECK (train_domains IS NULL OR json_valid(train_domains));
ALTER TABLE runs ADD COLUMN base_run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL;
