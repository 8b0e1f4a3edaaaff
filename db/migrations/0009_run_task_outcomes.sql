-- Schema version 9: statistics read per-(run, task) counts kept up to date
-- on every write, not every trajectory, so that they cost O(tasks); and
-- whether a trajectory could be evaluated at all is a column of its own,
-- not a source's raw key.

-- 0 for a trajectory its source could not evaluate at all (tau2-bench's
-- NON_EVALUABLE_TERMINATION_REASONS: infrastructure_error,
-- context_window_exceeded), which --infra-errors exclude leaves out of
-- every denominator. Earlier versions kept tau2-bench's reason only in
-- extra, where this backfill finds it.
ALTER TABLE trajectories ADD COLUMN evaluable INTEGER NOT NULL DEFAULT 1
    CHECK (evaluable IN (0, 1));
UPDATE trajectories SET evaluable = 0
WHERE json_extract(extra, '$.termination_reason') IN ('infrastructure_error', 'context_window_exceeded');

-- One row per (run, task row, evaluable) with trajectories: emobench
-- rewrites a run's rows in the transaction that writes its trajectories
-- (ingest, run, merge); deleting the run deletes them.
CREATE TABLE run_task_outcomes (
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    task_id   INTEGER NOT NULL REFERENCES tasks(id),
    evaluable INTEGER NOT NULL CHECK (evaluable IN (0, 1)),
    trials    INTEGER NOT NULL, -- trajectories
    passes    INTEGER NOT NULL, -- passed = 1
    abandoned INTEGER NOT NULL, -- termination_reason = 'user_unsatisfied'
    evaluated INTEGER NOT NULL, -- evaluated = 1
    partial   INTEGER NOT NULL, -- evaluated, reward neither 1 (a pass), 0 nor -1
    credit    REAL    NOT NULL, -- sum of the rewards above 0 of evaluated ones
    PRIMARY KEY (run_id, task_id, evaluable)
) WITHOUT ROWID;
-- Deleting a task checks no outcome refers to it.
CREATE INDEX run_task_outcomes_task ON run_task_outcomes (task_id);

INSERT INTO run_task_outcomes (run_id, task_id, evaluable, trials, passes, abandoned, evaluated, partial, credit)
SELECT run_id, task_id, evaluable,
       COUNT(*), SUM(passed), SUM(termination_reason = 'user_unsatisfied'), SUM(evaluated),
       SUM(evaluated = 1 AND reward IS NOT NULL AND passed = 0 AND reward <> 0 AND reward <> -1),
       TOTAL(CASE WHEN evaluated = 1 AND reward > 0 THEN reward ELSE 0.0 END)
FROM trajectories
GROUP BY run_id, task_id, evaluable;

-- The views keep their columns and meaning, and read the counts.
DROP VIEW run_summaries;
DROP VIEW task_outcomes;

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
    SELECT run_id, task_id, SUM(trials) AS trials, SUM(passes) AS passes, SUM(abandoned) AS abandoned
    FROM run_task_outcomes
    GROUP BY run_id, task_id
) t
JOIN tasks k ON k.id = t.task_id
GROUP BY t.run_id, k.task_key;

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
