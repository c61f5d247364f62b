package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.storage.graph.internal.NodeTallies;

/**
 * What an import writes of nodes and links once every row is in: the new processes (which waited for
 * their inputs' hashes, see {@link NodeIntake}), the extras merged into the nodes here already, and the
 * links, resolved into {@code import_links} and checked by the graph's rules before the new ones are
 * inserted, so an error names the archive's row rather than a constraint.
 */
final class NodeImports {

    private static final String LINKS = Staging.table(ArchivePart.LINKS);

    private NodeImports() {}

    /**
     * Inserts the new processes, which waited in import_processes for their hashes (made into
     * import_hashes), and puts them in the import group; returns how many.
     */
    static long processes(Connection c, EntityImports.ImportGroup group) throws SQLException {
        String columns = "id, uuid, node_type, process_type, label, description, ctime, mtime, user_id, computer_id,"
                + " attributes, extras, repository_metadata";
        try (Statement s = c.createStatement()) {
            long added;
            try (ResultSet r = s.executeQuery("WITH n AS (INSERT INTO node (" + columns + ", hash) SELECT p."
                    + columns.replace(", ", ", p.") + ", h.hash FROM import_processes p"
                    + " LEFT JOIN import_hashes h ON h.ord = p.ord ORDER BY p.ord RETURNING "
                    + NodeTallies.RETURNING_KEY + "), t AS (" + NodeTallies.countReturned("n")
                    + ") SELECT count(*) FROM n")) {
                r.next();
                added = r.getLong(1);
            }
            if (group != null) {
                s.executeUpdate("INSERT INTO group_member (group_id, node_id) SELECT " + group.id()
                        + ", id FROM import_processes ORDER BY ord");
            }
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
        try (PreparedStatement s = c.prepareStatement("UPDATE node n SET extras = " + merged
                + " FROM import_extras t WHERE n.id = t.id AND n.extras <> " + merged)) {
            return s.executeLargeUpdate();
        }
    }

    /**
     * The nodes here already (id, uuid) that the bulk writes named: the import group's members, when the
     * group was made, and the ends of the new links. Call after {@link #links}.
     */
    static String namedHere(boolean grouped) {
        return "SELECT input_id AS id, input_uuid AS uuid FROM import_links WHERE is_new AND NOT input_new"
                + " UNION SELECT output_id, output_uuid FROM import_links WHERE is_new AND NOT output_new"
                + (grouped ? " UNION SELECT id, uuid::text FROM import_nodes WHERE NOT is_new" : "");
    }

    /** Resolves the archive's links, checks them by the graph's rules, and inserts the new ones. */
    static long links(Connection c, ImportSteps steps) throws SQLException {
        try (Statement s = c.createStatement()) {
            // the archive's own nodes first; a join with node itself would read the whole table, twice
            s.execute("CREATE TEMP TABLE import_links ON COMMIT DROP AS SELECT l.ord, ii.id AS input_id, io.id AS"
                    + " output_id, l.doc->>'type' AS type, l.doc->>'label' AS label, l.doc->>'input' AS input_uuid,"
                    + " l.doc->>'output' AS output_uuid, ii.node_type AS input_type, io.node_type AS output_type,"
                    + " coalesce(ii.is_new, false) AS input_new, coalesce(io.is_new, false) AS output_new,"
                    + " true AS is_new FROM " + LINKS + " l"
                    + " LEFT JOIN import_nodes ii ON ii.uuid = (l.doc->>'input')::uuid"
                    + " LEFT JOIN import_nodes io ON io.uuid = (l.doc->>'output')::uuid");
            // then the few ends outside the archive, each looked up here by its key
            for (String end : new String[] {"input", "output"}) {
                s.executeUpdate("UPDATE import_links l SET (" + end + "_id, " + end + "_type) = (SELECT n.id,"
                        + " n.node_type FROM node n WHERE n.uuid = l." + end + "_uuid::uuid) WHERE l." + end
                        + "_id IS NULL");
            }
            s.execute("ANALYZE import_links");
        }
        steps.done("links resolved");
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
        steps.done("links here already");
        LinkRules.check(c);
        steps.done("link rules");
        LinkCycles.check(c);
        steps.done("link cycles");
        try (Statement s = c.createStatement()) {
            return s.executeLargeUpdate("INSERT INTO link (input_id, output_id, type, label) SELECT input_id,"
                    + " output_id, type, label FROM import_links WHERE is_new ORDER BY ord");
        }
    }
}
