-- Schema version 3: published leaderboard results beside the runs.

-- One row per (model, domain, k) of a τ²-bench leaderboard submission.json.
CREATE TABLE published_results (
    id             INTEGER PRIMARY KEY,
    model          TEXT    NOT NULL,
    organization   TEXT,
    domain         TEXT    NOT NULL,
    k              INTEGER NOT NULL CHECK (k >= 1),
    pass_hat_k     REAL    NOT NULL CHECK (pass_hat_k >= 0 AND pass_hat_k <= 1), -- a 0–1 fraction
    cost           REAL,            -- USD as published; NULL when not given
    user_simulator TEXT,
    date           TEXT,
    source_file    TEXT    NOT NULL,
    source_sha256  TEXT    NOT NULL,
    UNIQUE (source_sha256, domain, k)
);
CREATE INDEX published_results_domain ON published_results (domain, k);
