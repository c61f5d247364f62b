-- Every state change of a process, written in the transaction that makes it: what a client's
-- event stream replays after a reconnect (broker broadcasts are not durable). The id orders the
-- changes and is the event id of the server's Server-Sent Events.
CREATE TABLE process_event (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    process_id  bigint      NOT NULL REFERENCES node (id) ON DELETE CASCADE,
    caller_id   bigint,
    from_state  text        NOT NULL,
    to_state    text        NOT NULL,
    exit_status integer,
    time        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX process_event_process_idx ON process_event (process_id, id);
CREATE INDEX process_event_time_idx ON process_event (time);
