-- name: CreateTrajectory :one
INSERT INTO trajectories (
    run_id, task_id, trial, reward, passed, evaluated, termination_reason,
    agent_cost, user_cost, n_messages, n_user_turns, n_agent_turns,
    n_tool_calls, n_tool_errors, error, reward_info, extra, seed
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- name: DeleteTrajectory :exec
DELETE FROM trajectories WHERE run_id = ? AND task_id = ? AND trial = ?;

-- name: CreateMessage :exec
INSERT INTO messages (
    trajectory_id, idx, role, content, tool_name, tool_call_id,
    tool_arguments, tool_calls, arguments_malformed,
    prompt_tokens, completion_tokens, cost
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
