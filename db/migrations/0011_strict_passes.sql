-- Schema version 11: strict scoring (stats passk --strict). A trajectory
-- passes strictly when it passed and every check its reward_info records
-- passed, inside its reward_basis or not (tau2-bench issues #15, #81,
-- #224: reward 1 while a check outside reward_basis failed). Writers set
-- strict_passed with emobench.Trajectory.StrictPassed; run_task_outcomes
-- keeps the per-(run, task) count beside passes, so strict pass^k costs
-- O(tasks) as gated pass^k does.

ALTER TABLE trajectories ADD COLUMN strict_passed INTEGER NOT NULL DEFAULT 0
    CHECK (strict_passed IN (0, 1));

-- The backfill applies StrictPassed's rule in SQL to what older versions
-- stored: a passed trajectory fails strictly when its reward_info is not an
-- object, or records a check that did not pass: db_check.db_match,
-- env_assertions[].met, action_checks[].action_match,
-- communicate_checks[].met, nl_assertions[].met, refusal_check.met not
-- true (null: not checked, which is no pass), forbidden_checks[].called
-- not false, or one of those lists is not an array. tau-bench's and older
-- native reward_info record none of these, so they keep passed.
UPDATE trajectories SET strict_passed = passed;
UPDATE trajectories SET strict_passed = 0
WHERE strict_passed = 1 AND reward_info IS NOT NULL AND (
    json_type(reward_info) <> 'object'
    OR (json_type(reward_info, '$.db_check') NOT IN ('null') AND
        json_type(reward_info, '$.db_check.db_match') IS NOT 'true')
    OR (json_type(reward_info, '$.refusal_check') NOT IN ('null') AND
        json_type(reward_info, '$.refusal_check.met') IS NOT 'true')
    OR json_type(reward_info, '$.env_assertions') NOT IN ('array', 'null')
    OR json_type(reward_info, '$.action_checks') NOT IN ('array', 'null')
    OR json_type(reward_info, '$.communicate_checks') NOT IN ('array', 'null')
    OR json_type(reward_info, '$.nl_assertions') NOT IN ('array', 'null')
    OR json_type(reward_info, '$.forbidden_checks') NOT IN ('array', 'null')
    OR EXISTS (SELECT 1 FROM json_each(reward_info, '$.env_assertions') e
               WHERE json_type(reward_info, '$.env_assertions') = 'array' AND CASE WHEN e.type = 'object' THEN json_type(e.value, '$.met') END IS NOT 'true')
    OR EXISTS (SELECT 1 FROM json_each(reward_info, '$.action_checks') e
               WHERE json_type(reward_info, '$.action_checks') = 'array' AND CASE WHEN e.type = 'object' THEN json_type(e.value, '$.action_match') END IS NOT 'true')
    OR EXISTS (SELECT 1 FROM json_each(reward_info, '$.communicate_checks') e
               WHERE json_type(reward_info, '$.communicate_checks') = 'array' AND CASE WHEN e.type = 'object' THEN json_type(e.value, '$.met') END IS NOT 'true')
    OR EXISTS (SELECT 1 FROM json_each(reward_info, '$.nl_assertions') e
               WHERE json_type(reward_info, '$.nl_assertions') = 'array' AND CASE WHEN e.type = 'object' THEN json_type(e.value, '$.met') END IS NOT 'true')
    OR EXISTS (SELECT 1 FROM json_each(reward_info, '$.forbidden_checks') e
               WHERE json_type(reward_info, '$.forbidden_checks') = 'array' AND CASE WHEN e.type = 'object' THEN json_type(e.value, '$.called') END IS NOT 'false')
);

-- strict_passes: trajectories with strict_passed = 1, never more than passes.
ALTER TABLE run_task_outcomes ADD COLUMN strict_passes INTEGER NOT NULL DEFAULT 0;
UPDATE run_task_outcomes SET strict_passes = (
    SELECT COUNT(*) FROM trajectories t
    WHERE t.run_id = run_task_outcomes.run_id AND t.task_id = run_task_outcomes.task_id
      AND t.evaluable = run_task_outcomes.evaluable AND t.strict_passed = 1
);
