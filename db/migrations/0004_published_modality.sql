-- Schema version 4: τ²-bench leaderboard submissions say whether the agent
-- was evaluated in text or voice (modality) and whether it followed the
-- standard protocol (submission_type); voice and text scores must not be
-- read as one series.

ALTER TABLE published_results ADD COLUMN modality TEXT;        -- text, voice; NULL when not given
ALTER TABLE published_results ADD COLUMN submission_type TEXT; -- standard, custom; NULL when not given
