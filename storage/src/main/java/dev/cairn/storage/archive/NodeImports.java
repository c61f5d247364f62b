package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.storage.graph.NodeTypes;

/**
 * The nodes and links of an import. The archive's nodes are resolved by uuid into {@code import_nodes}
 * (ord, uuid, id, is_new); the new ones are inserted, the ones already here have their extras merged.
 * The archive's links are resolved into {@code import_links} and checked by the graph's rules before
 * the new ones are inserted, so an error names the archive's row rather than a constraint.
 */
final class NodeImports {

    private static final String NODES = Staging.table(ArchivePart.NODES);
    private static final String LINKS = Staging.table(ArchivePart.LINKS);

    private NodeImports() {}

    /** Checks what the nodes name, inserts the new ones; returns how many were new. */
    static long nodes(Connection c) throws SQLException {
        RowChecks.fail(
                c,
                ArchivePart.NODES,
                "SELECT ord, 'node ' || (doc->>'uuid') || ' is a process of type '"
                        + " || (doc->>'node_type') || ', which this Cairn cannot read' FROM " + NODES + " WHERE"
                        + " doc->>'node_type' LIKE 'process.%' AND doc->>'node_type' <> ALL ('" + knownProcessTypes()
                        + "'::text[]) ORDER BY ord LIMIT 1");
        RowChecks.fail(
                c,
                ArchivePart.NODES,
                "SELECT ord, 'node ' || (doc->>'uuid') || ' is a process that is not"
                        + " sealed: an archive holds finished provenance only' FROM " + NODES
                        + " WHERE doc->>'node_type'"
                        + " LIKE 'process.%' AND (doc->'attributes'->>'sealed') IS DISTINCT FROM 'true' ORDER BY ord LIMIT 1");
        RowChecks.fail(
                c,
                ArchivePart.NODES,
                "SELECT a.ord, 'node ' || (a.doc->>'uuid') || ' names user '"
                        + " || (a.doc->>'user') || ', who is neither in the archive nor here' FROM " + NODES
                        + " a WHERE NOT"
                        + " EXISTS (SELECT 1 FROM app_user u WHERE u.email = a.doc->>'user') ORDER BY a.ord LIMIT 1");
        RowChecks.fail(
                c,
                ArchivePart.NODES,
                "SELECT a.ord, 'node ' || (a.doc->>'uuid') || ' names computer '"
                        + " || (a.doc->>'computer') || ', which is neither in the archive nor here' FROM " + NODES
                        + " a"
                        + " WHERE jsonb_typeof(a.doc->'computer') = 'string' AND NOT EXISTS (SELECT 1 FROM computer x WHERE"
                        + " x.uuid::text = lower(a.doc->>'computer')) ORDER BY a.ord LIMIT 1");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE import_nodes ON COMMIT DROP AS SELECT ord, (doc->>'uuid')::uuid AS uuid,"
                    + " doc->>'node_type' AS node_type, NULL::bigint AS id, false AS is_new, NULL::text AS hash FROM "
                    + NODES);
            s.execute("ALTER TABLE import_nodes ADD PRIMARY KEY (uuid)");
            s.execute("ANALYZE import_nodes");
            s.executeUpdate("UPDATE import_nodes i SET id = n.id FROM node n WHERE n.uuid = i.uuid");
        }
        ImportHashes.compute(c);
        try (Statement s = c.createStatement()) {
            long added = s.executeLargeUpdate("WITH added AS (INSERT INTO node (uuid, node_type, process_type, label,"
                    + " description, ctime, mtime, user_id, computer_id, attributes, extras, repository_metadata, hash)"
                    + " SELECT i.uuid, i.node_type, a.doc->>'process_type', coalesce(a.doc->>'label', ''),"
                    + " coalesce(a.doc->>'description', ''), (a.doc->>'ctime')::timestamptz,"
                    + " (a.doc->>'mtime')::timestamptz, u.id, x.id, coalesce(nullif(a.doc->'attributes', 'null'),"
                    + " '{}'), coalesce(nullif(a.doc->'extras', 'null'), '{}'),"
                    + " coalesce(nullif(a.doc->'repository_metadata', 'null'), '{}'), i.hash FROM import_nodes i"
                    + " JOIN " + NODES + " a ON a.ord = i.ord JOIN app_user u ON u.email = a.doc->>'user'"
                    + " LEFT JOIN computer x ON x.uuid::text = lower(a.doc->>'computer') WHERE i.id IS NULL"
                    + " ORDER BY i.ord RETURNING id, uuid)"
                    + " UPDATE import_nodes i SET id = added.id, is_new = true FROM added WHERE added.uuid = i.uuid");
            s.execute("CREATE INDEX ON import_nodes (id) INCLUDE (is_new, node_type)");
            s.execute("ANALYZE import_nodes");
            return added;
        }
    }

    /**
     * Merges the archive's extras into the nodes already here, by AiiDA's three-letter mode; a node whose
     * extras come out the same is not written.
     */
    static long mergeExtras(Connection c, ImportOptions options) throws SQLException {
        String ours = options.keepOnlyOurs() ? "TRUE" : "FALSE";
        String theirs = options.createOnlyTheirs() ? "TRUE" : "FALSE";
        char collision = options.onCollision();
        String merged = "(SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM ("
                + " SELECT o.key, o.value FROM jsonb_each(n.extras) o WHERE CASE WHEN jsonb_exists(t.extras, o.key) THEN "
                + (collision == 'l' ? "TRUE" : "FALSE") + " ELSE " + ours + " END"
                + " UNION ALL SELECT e.key, e.value FROM jsonb_each(t.extras) e WHERE CASE WHEN jsonb_exists(n.extras, e.key) THEN "
                + (collision == 'u' ? "TRUE" : "FALSE") + " ELSE " + theirs + " END) m)";
        try (PreparedStatement s = c.prepareStatement("UPDATE node n SET extras = " + merged + " FROM (SELECT i.id,"
                + " coalesce(nullif(a.doc->'extras', 'null'), '{}') AS extras FROM import_nodes i JOIN " + NODES
                + " a ON a.ord = i.ord WHERE NOT i.is_new) t WHERE n.id = t.id AND n.extras <> " + merged)) {
            return s.executeLargeUpdate();
        }
    }

    /** Resolves the archive's links, checks them by the graph's rules, and inserts the new ones. */
    static long links(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE import_links ON COMMIT DROP AS SELECT l.ord, coalesce(ii.id, ni.id) AS"
                    + " input_id, coalesce(io.id, no.id) AS output_id, l.doc->>'type' AS type, l.doc->>'label' AS label,"
                    + " l.doc->>'input' AS input_uuid, l.doc->>'output' AS output_uuid,"
                    + " coalesce(ii.node_type, ni.node_type) AS input_type, coalesce(io.node_type, no.node_type) AS"
                    + " output_type, coalesce(ii.is_new, false) AS input_new, coalesce(io.is_new, false) AS output_new,"
                    + " true AS is_new FROM " + LINKS
                    + " l LEFT JOIN import_nodes ii ON ii.uuid = (l.doc->>'input')::uuid LEFT JOIN node ni ON ii.id IS"
                    + " NULL AND ni.uuid = (l.doc->>'input')::uuid LEFT JOIN import_nodes io ON io.uuid ="
                    + " (l.doc->>'output')::uuid LEFT JOIN node no ON io.id IS NULL AND no.uuid ="
                    + " (l.doc->>'output')::uuid");
            s.execute("ANALYZE import_links");
        }
        RowChecks.fail(
                c,
                ArchivePart.LINKS,
                "SELECT ord, 'node ' || CASE WHEN input_id IS NULL THEN input_uuid ELSE"
                        + " output_uuid END || ' is neither in the archive nor here' FROM import_links WHERE input_id IS NULL"
                        + " OR output_id IS NULL ORDER BY ord LIMIT 1");
        try (Statement s = c.createStatement()) {
            // only links between two nodes that were here already can be here already
            s.executeUpdate("UPDATE import_links l SET is_new = false FROM link x WHERE NOT l.input_new AND NOT"
                    + " l.output_new AND x.input_id = l.input_id AND x.output_id = l.output_id AND x.type = l.type"
                    + " AND x.label = l.label");
        }
        LinkRules.check(c);
        LinkCycles.check(c);
        try (Statement s = c.createStatement()) {
            return s.executeLargeUpdate("INSERT INTO link (input_id, output_id, type, label) SELECT input_id,"
                    + " output_id, type, label FROM import_links WHERE is_new ORDER BY ord");
        }
    }

    private static String knownProcessTypes() {
        StringBuilder types = new StringBuilder("{");
        for (String t : NodeTypes.known()) {
            if (t.startsWith("process.")) {
                types.append(types.length() > 1 ? "," : "").append(t);
            }
        }
        return types.append('}').toString();
    }
}
