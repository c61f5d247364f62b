-- Indexes for the query builder's filters on declared attribute paths of core types.
-- Each expression is written exactly as dev.cairn.storage.query.Expressions writes the
-- filter, so that the planner matches it once a query's parameters are known (the query
-- runs with a custom plan). Without them these filters detoast every candidate row's whole
-- attributes value, which for structures is several KiB.
-- They cover all nodes, not a partial set: a partial index on node_type would not be used by
-- the LIKE 'prefix%' of a type with its subtypes, and the planner keeps no statistics of a
-- partial expression index that it cannot prove applies. Other nodes add a NULL entry each.

-- attributes.sites of/longer/shorter N: number of sites of a structure
CREATE INDEX node_attr_sites_length_idx ON node (
    (jsonb_array_length(CASE WHEN jsonb_typeof(attributes -> 'sites') = 'array' THEN attributes -> 'sites' END)));

-- attributes.kinds contains [...]: structures by element (GIN, containment only)
CREATE INDEX node_attr_kinds_idx ON node USING gin ((attributes -> 'kinds') jsonb_path_ops);

-- attributes.cell.0.0 > x: a structure's first lattice vector's x component
CREATE INDEX node_attr_cell_a_idx ON node (
    (CASE WHEN jsonb_typeof(attributes #> '{cell,0,0}') = 'number' THEN (attributes #> '{cell,0,0}')::numeric END));

-- Expression indexes have statistics of their own, which the planner needs to choose them;
-- gather them now rather than at the next autovacuum.
ANALYZE node;
