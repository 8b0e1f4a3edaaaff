-- Schema version 2: what native (simulated) runs record beyond imported ones.

ALTER TABLE tasks ADD COLUMN split TEXT;              -- test | train; NULL for imported tasks
ALTER TABLE tasks ADD COLUMN scenario TEXT            -- the user's facts and requests (JSON)
    CHECK (scenario IS NULL OR json_valid(scenario));

ALTER TABLE trajectories ADD COLUMN seed INTEGER;     -- episode seed of native runs

ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;     -- LLM-written messages only
ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
ALTER TABLE messages ADD COLUMN cost REAL;                 -- USD; NULL = unknown
