-- The engine's durable state: one row per live or finished process that a worker steps,
-- and the outbox of task messages a step committed but may not have published yet.

CREATE TABLE process (
    node_id      bigint PRIMARY KEY REFERENCES node (id) ON DELETE CASCADE,
    entry_point  text        NOT NULL,
    parent_id    bigint      REFERENCES node (id) ON DELETE CASCADE,
    -- created, running, waiting, finished, excepted, killed (the node's process_state mirrors it)
    state        text        NOT NULL,
    -- the step a task must name to be run; a task naming an older step was run already
    step         integer     NOT NULL DEFAULT 0,
    -- a continue task is due: set on submit and on wake-up, cleared when a step leaves the process waiting
    runnable     boolean     NOT NULL DEFAULT true,
    paused       boolean     NOT NULL DEFAULT false,
    -- the parent waits for this process to terminate
    awaited      boolean     NOT NULL DEFAULT false,
    -- awaited children not yet terminated
    awaiting     integer     NOT NULL DEFAULT 0,
    checkpoint   jsonb       NOT NULL DEFAULT '{}',
    updated      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT process_state_check
        CHECK (state IN ('created', 'running', 'waiting', 'finished', 'excepted', 'killed')),
    CONSTRAINT process_awaiting_check CHECK (awaiting >= 0)
);

CREATE INDEX process_parent_idx ON process (parent_id) WHERE parent_id IS NOT NULL;
-- what the sweeper looks at: live processes with a task due
CREATE INDEX process_due_idx ON process (updated) WHERE runnable AND NOT paused
    AND state NOT IN ('finished', 'excepted', 'killed');

CREATE TABLE outbox (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    process_id  bigint      NOT NULL,
    step        integer     NOT NULL,
    created     timestamptz NOT NULL DEFAULT now()
);
