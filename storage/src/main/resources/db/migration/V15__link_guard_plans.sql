-- The link guard's join is planned once per session and its plan kept, so a plan made while the node table
-- was small stayed after it grew: on a fresh database a worker's session planned it over a few hundred nodes
-- as a sequential scan of node, and every step of the thousands that followed scanned the whole table, until
-- autovacuum's next ANALYZE happened to invalidate the plan (a run of 5,000 work chains took 1.7 to 4.4
-- million processes an hour depending on when it did). The guard now never scans node: each link's two nodes
-- are looked up by their key, whatever the table's size when the plan was made. A statement of a few links
-- (a step's) and one of many (a bulk store, an import) have plans of their own, each made for its kind of
-- statement: the plan of a first large statement is never used for the small ones, nor the other way round.
CREATE OR REPLACE FUNCTION link_guard_insert() RETURNS trigger LANGUAGE plpgsql
    SET enable_seqscan = off AS $$
DECLARE
    bad record;
    few boolean;
BEGIN
    few := (SELECT count(*) FROM (SELECT 1 FROM added LIMIT 1001) f) <= 1000;
    IF few THEN
        SELECT a.id AS link_id, a.type, a.label, i.id AS input_id, i.node_type AS input_type,
               o.id AS output_id, o.node_type AS output_type,
               sealed_before(i.attributes, i.xmin) OR sealed_before(o.attributes, o.xmin) AS sealed
          INTO bad
          FROM added a
          JOIN node i ON i.id = a.input_id
          JOIN node o ON o.id = a.output_id
         WHERE NOT CASE a.type
                   WHEN 'create'     THEN i.node_type LIKE 'process.calculation.%' AND o.node_type LIKE 'data.%'
                   WHEN 'return'     THEN i.node_type LIKE 'process.workflow.%'    AND o.node_type LIKE 'data.%'
                   WHEN 'input_calc' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.calculation.%'
                   WHEN 'input_work' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.workflow.%'
                   WHEN 'call_calc'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.calculation.%'
                   WHEN 'call_work'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.workflow.%'
                   END
            OR sealed_before(i.attributes, i.xmin) OR sealed_before(o.attributes, o.xmin)
         LIMIT 1;
    ELSE
        SELECT a.id AS link_id, a.type, a.label, i.id AS input_id, i.node_type AS input_type,
               o.id AS output_id, o.node_type AS output_type,
               sealed_before(i.attributes, i.xmin) OR sealed_before(o.attributes, o.xmin) AS sealed
          INTO bad
          FROM added a
          JOIN node i ON i.id = a.input_id
          JOIN node o ON o.id = a.output_id
         WHERE NOT CASE a.type
                   WHEN 'create'     THEN i.node_type LIKE 'process.calculation.%' AND o.node_type LIKE 'data.%'
                   WHEN 'return'     THEN i.node_type LIKE 'process.workflow.%'    AND o.node_type LIKE 'data.%'
                   WHEN 'input_calc' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.calculation.%'
                   WHEN 'input_work' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.workflow.%'
                   WHEN 'call_calc'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.calculation.%'
                   WHEN 'call_work'  THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.workflow.%'
                   END
            OR sealed_before(i.attributes, i.xmin) OR sealed_before(o.attributes, o.xmin)
         LIMIT 1;
    END IF;
    IF FOUND THEN
        IF bad.sealed THEN
            RAISE EXCEPTION 'link % % -> % (label %): a sealed node takes no new links',
                upper(bad.type), bad.input_id, bad.output_id, bad.label USING ERRCODE = 'CA002';
        END IF;
        RAISE EXCEPTION 'link % % -> % (label %): % cannot join % to %',
            upper(bad.type), bad.input_id, bad.output_id, bad.label, upper(bad.type),
            bad.input_type, bad.output_type USING ERRCODE = 'CA002';
    END IF;
    RETURN NULL;
END
$$;
