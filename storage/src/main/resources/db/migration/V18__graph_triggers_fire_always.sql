-- The graph's own triggers fire whatever the session's replication role: an archive import whose role
-- may skips the foreign keys' per-row checks with session_replication_role = replica (ArchiveImport,
-- ForeignKeyChecks), and the guards and tallies must still hold for what it writes. A logical
-- replication subscriber would run them too, on rows that arrive with their tallies already counted;
-- Cairn has none.
ALTER TABLE node ENABLE ALWAYS TRIGGER node_guard_update;
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_insert;
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_delete;
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_update;
ALTER TABLE node ENABLE ALWAYS TRIGGER node_tally_truncate;
ALTER TABLE link ENABLE ALWAYS TRIGGER link_guard_insert;
