-- Schema version 5: one-time data tasks that writing commands run on files
-- made by older versions (such as redacting credentials those versions
-- stored), each recorded once done.

CREATE TABLE maintenance (
    task    TEXT PRIMARY KEY,
    done_at TEXT NOT NULL -- RFC 3339
);
