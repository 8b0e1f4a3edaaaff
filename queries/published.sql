-- name: CreatePublishedResult :exec
INSERT INTO published_results (
    model, organization, domain, k, pass_hat_k, cost, user_simulator, date,
    source_file, source_sha256, modality, submission_type
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: CountPublishedBySHA256 :one
SELECT COUNT(*) FROM published_results WHERE source_sha256 = ?;

-- name: ListPublishedResults :many
SELECT model, organization, domain, k, pass_hat_k, cost, user_simulator, date, source_file,
       modality, submission_type, source_sha256
FROM published_results ORDER BY domain, model, k;

-- name: ListPublishedResultsV3 :many
-- ListPublishedResults of a schema version 3 file (before modality), which
-- merge reads without migrating it.
SELECT model, organization, domain, k, pass_hat_k, cost, user_simulator, date, source_file, source_sha256
FROM published_results ORDER BY domain, model, k;
