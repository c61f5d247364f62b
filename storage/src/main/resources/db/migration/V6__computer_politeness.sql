-- What all workers on all hosts share about each computer, so that together they stay polite:
-- when its scheduler may be asked again, how many polls failed in a row, and the token bucket
-- of its job submissions.
CREATE TABLE computer_activity (
    computer_id    bigint PRIMARY KEY REFERENCES computer (id) ON DELETE CASCADE,
    next_poll      timestamptz      NOT NULL DEFAULT '-infinity',
    poll_failures  integer          NOT NULL DEFAULT 0,
    submit_tokens  double precision,
    submit_at      timestamptz
);

-- Failed attempts of a calculation job's current step at its transport or scheduler; the step is
-- tried again later, and the process paused after the computer's last attempt.
ALTER TABLE process ADD COLUMN job_failures integer NOT NULL DEFAULT 0;

-- A task not to be sent before this time (a retry after backoff); null: as soon as committed.
ALTER TABLE outbox ADD COLUMN due timestamptz;
