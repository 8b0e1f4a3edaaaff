-- name: FindRunLock :one
SELECT pid, host, command, started_at FROM run_locks WHERE run_id = ?;

-- name: SetRunLock :exec
INSERT OR REPLACE INTO run_locks (run_id, pid, host, command, started_at) VALUES (?, ?, ?, ?, ?);

-- name: DeleteRunLock :exec
DELETE FROM run_locks WHERE run_id = ? AND pid = ? AND host = ? AND started_at = ?;

-- name: DeleteAnyRunLock :execrows
DELETE FROM run_locks WHERE run_id = ?;
