-- Schema version 7: the process that is running (or resuming) a native run,
-- so that a second `emobench run --resume` of that run is refused at once
-- instead of storing the same (task, trial) pairs twice.

CREATE TABLE run_locks (
    run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    pid        INTEGER NOT NULL,
    host       TEXT    NOT NULL,
    command    TEXT    NOT NULL,
    started_at TEXT    NOT NULL -- RFC 3339
);
