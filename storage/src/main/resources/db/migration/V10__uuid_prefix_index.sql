-- The API resolves a node by a unique prefix of its uuid (as AiiDA does): an index on the text
-- form answers "uuid::text LIKE 'ab12%'" without a scan.
CREATE INDEX node_uuid_prefix_idx ON node ((uuid::text) text_pattern_ops);
