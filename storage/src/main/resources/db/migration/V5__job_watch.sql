-- Calculation jobs waiting for their scheduler: what the job poller of each computer asks about.
CREATE TABLE job_watch (
    node_id     bigint PRIMARY KEY REFERENCES process (node_id) ON DELETE CASCADE,
    computer_id bigint NOT NULL REFERENCES computer (id),
    job_id      text   NOT NULL,
    since       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_watch_computer_idx ON job_watch (computer_id);
