-- Schema version 8: where each run came from. A merged run keeps the
-- source_sha256 of the file it was once ingested from, so that merging twice
-- adds nothing; its provenance says it was not ingested here, and ingest
-- offers to replace it with the file's own content. Runs stored before this
-- version are 'unknown': earlier versions did not record merges.

ALTER TABLE runs ADD COLUMN provenance TEXT NOT NULL DEFAULT 'unknown'
    CHECK (provenance IN ('ingested', 'native', 'merged', 'unknown'));
ALTER TABLE runs ADD COLUMN merged_from TEXT;        -- merged: the db file it was copied from
ALTER TABLE runs ADD COLUMN merged_from_sha256 TEXT; -- merged: sha256 of that file when merged
ALTER TABLE runs ADD COLUMN merged_at TEXT;          -- merged: RFC 3339
