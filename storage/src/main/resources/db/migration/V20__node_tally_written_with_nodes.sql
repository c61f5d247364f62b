-- The statistics tallies (V11) are kept by the statements that write nodes, not by statement triggers.
-- A statement trigger with a transition table costs every statement that writes a node a copy of each
-- row it wrote (attributes and all), a PL/pgSQL call and a query over that copy; on a single node's
-- store it cost about as much as the node's foreign keys or its expression indexes, and the update
-- trigger paid it for every label or extras change too.
--
-- Inserts: the storage layer writes a node's change row in the very statement that inserts the node
-- (dev.cairn.storage.graph.statistics.NodeTallies), and its connections say so by setting
-- cairn.node_tally = 'written' when the pool opens them. A row trigger counts what any other session
-- inserts (psql, tools); in Cairn's sessions its WHEN condition is false and it never runs.
-- State changes: a row trigger on the rows whose process state or paused flag changed, for every
-- session; an update of anything else does not fire it.
-- Deletions and truncation keep their statement triggers: they are rare, and they cost the deletion.
-- Like V18's, these triggers fire whatever the session's replication role.

DROP TRIGGER node_tally_insert ON node;
DROP FUNCTION node_tally_insert();

CREATE FUNCTION node_tally_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)
    VALUES (NEW.node_type, coalesce(NEW.process_type, ''), node_tally_state(NEW.node_type, NEW.attributes),
            node_tally_paused(NEW.node_type, NEW.attributes), NEW.user_id, (NEW.ctime AT TIME ZONE 'UTC')::date, 1);
    RETURN NULL;
END
$$;

CREATE TRIGGER node_tally_insert AFTER INSERT ON node FOR EACH ROW
    WHEN (current_setting('cairn.node_tally', true) IS DISTINCT FROM 'written')
    EXECUTE FUNCTION node_tally_insert();
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_insert;

DROP TRIGGER node_tally_update ON node;
DROP FUNCTION node_tally_update();

-- The process leaves its old key and joins the new one.
CREATE FUNCTION node_tally_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)
    VALUES (OLD.node_type, coalesce(OLD.process_type, ''), node_tally_state(OLD.node_type, OLD.attributes),
            node_tally_paused(OLD.node_type, OLD.attributes), OLD.user_id, (OLD.ctime AT TIME ZONE 'UTC')::date, -1),
           (NEW.node_type, coalesce(NEW.process_type, ''), node_tally_state(NEW.node_type, NEW.attributes),
            node_tally_paused(NEW.node_type, NEW.attributes), NEW.user_id, (NEW.ctime AT TIME ZONE 'UTC')::date, 1);
    RETURN NULL;
END
$$;

-- Of a stored node only a process's state attributes may change (node_guard_update), so only an update of
-- the attributes can move a node to another key.
CREATE TRIGGER node_tally_update AFTER UPDATE OF attributes ON node FOR EACH ROW
    WHEN (node_tally_state(OLD.node_type, OLD.attributes) <> node_tally_state(NEW.node_type, NEW.attributes)
          OR node_tally_paused(OLD.node_type, OLD.attributes) <> node_tally_paused(NEW.node_type, NEW.attributes))
    EXECUTE FUNCTION node_tally_update();
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_update;
