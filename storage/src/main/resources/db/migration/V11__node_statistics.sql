-- The graph's statistics (nodes per type, process type and day of creation; processes per state;
-- each also for one user) kept as counts, so that reading them costs the same for a thousand
-- nodes as for ten million. Counting the node table itself was measured on 10^6 nodes: 450-490 ms
-- for the four GROUP BYs, index-only scans where there is an index, and a scan of the whole table
-- for one user's counts (jmh StatisticsBenchmark; README, "Computers, codes, groups, users, tokens,
-- statistics").
--
-- Two tallies, so that neither grows with the other's dimension: node_tally counts the nodes per
-- kind (node type, process type, process state, paused) and user, node_tally_day per day of
-- creation (UTC) and user; a year of history adds a row per user and day, not one per kind too.
-- Triggers append changes to node_tally_change, one row per key a statement touched (a COPY of
-- 10k nodes writes a handful); nothing is updated in place, so writers never wait for each other
-- on a counter row. GraphStatistics.compact() moves the changes into both tallies from time to
-- time; readers add the tallies and the changes up, which gives the exact counts at any moment.
-- This migration depends on nothing after V1 and may be renumbered freely.

CREATE TABLE node_tally (
    node_type     text    NOT NULL,
    process_type  text    NOT NULL, -- '' for data nodes
    process_state text    NOT NULL, -- '' for data nodes
    paused        boolean NOT NULL,
    user_id       bigint  NOT NULL,
    nodes         bigint  NOT NULL,
    PRIMARY KEY (node_type, process_type, process_state, paused, user_id)
);

CREATE TABLE node_tally_day (
    day     date   NOT NULL, -- the day of ctime, in UTC
    user_id bigint NOT NULL,
    nodes   bigint NOT NULL,
    PRIMARY KEY (day, user_id)
);

CREATE TABLE node_tally_change (
    node_type     text    NOT NULL,
    process_type  text    NOT NULL,
    process_state text    NOT NULL,
    paused        boolean NOT NULL,
    user_id       bigint  NOT NULL,
    day           date    NOT NULL,
    nodes         bigint  NOT NULL
);

-- A node's state and paused flag count only for process nodes: a Dict's keys are attributes too.
CREATE FUNCTION node_tally_state(node_type text, attributes jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN node_type LIKE 'process.%' THEN coalesce(attributes ->> 'process_state', '') ELSE '' END
$$;

CREATE FUNCTION node_tally_paused(node_type text, attributes jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT node_type LIKE 'process.%' AND coalesce(attributes -> 'paused' = 'true'::jsonb, false)
$$;

CREATE FUNCTION node_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)
    SELECT node_type, coalesce(process_type, ''), node_tally_state(node_type, attributes),
           node_tally_paused(node_type, attributes), user_id, (ctime AT TIME ZONE 'UTC')::date, count(*)
      FROM added
     GROUP BY 1, 2, 3, 4, 5, 6;
    RETURN NULL;
END
$$;

CREATE FUNCTION node_tally_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)
    SELECT node_type, coalesce(process_type, ''), node_tally_state(node_type, attributes),
           node_tally_paused(node_type, attributes), user_id, (ctime AT TIME ZONE 'UTC')::date, -count(*)
      FROM removed
     GROUP BY 1, 2, 3, 4, 5, 6;
    RETURN NULL;
END
$$;

-- Of a stored node only a process's state attributes may change (node_guard_update): a process
-- that moved to another state or was paused or played leaves its old key and joins the new one.
CREATE FUNCTION node_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)
    SELECT o.node_type, coalesce(o.process_type, ''), s.state, s.paused, o.user_id,
           (o.ctime AT TIME ZONE 'UTC')::date, s.nodes
      FROM old_rows o
      JOIN new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES
               (node_tally_state(o.node_type, o.attributes), node_tally_paused(o.node_type, o.attributes), -1),
               (node_tally_state(n.node_type, n.attributes), node_tally_paused(n.node_type, n.attributes), 1))
           AS s (state, paused, nodes)
     WHERE o.node_type LIKE 'process.%'
       AND (node_tally_state(o.node_type, o.attributes) <> node_tally_state(n.node_type, n.attributes)
            OR node_tally_paused(o.node_type, o.attributes) <> node_tally_paused(n.node_type, n.attributes));
    RETURN NULL;
END
$$;

CREATE FUNCTION node_tally_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE node_tally, node_tally_day, node_tally_change;
    RETURN NULL;
END
$$;

-- The nodes already stored, counted once (under a lock, so no node is stored meanwhile).
LOCK TABLE node IN SHARE MODE;
INSERT INTO node_tally (node_type, process_type, process_state, paused, user_id, nodes)
SELECT node_type, coalesce(process_type, ''), node_tally_state(node_type, attributes),
       node_tally_paused(node_type, attributes), user_id, count(*)
  FROM node
 GROUP BY 1, 2, 3, 4, 5;
INSERT INTO node_tally_day (day, user_id, nodes)
SELECT (ctime AT TIME ZONE 'UTC')::date, user_id, count(*)
  FROM node
 GROUP BY 1, 2;

CREATE TRIGGER node_tally_insert AFTER INSERT ON node REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION node_tally_insert();
CREATE TRIGGER node_tally_delete AFTER DELETE ON node REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION node_tally_delete();
CREATE TRIGGER node_tally_update AFTER UPDATE ON node REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION node_tally_update();
CREATE TRIGGER node_tally_truncate AFTER TRUNCATE ON node
    FOR EACH STATEMENT EXECUTE FUNCTION node_tally_truncate();
