package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The graph's link rules, checked on the archive's resolved links ({@code import_links}) before any is
 * inserted: the kinds of node each type joins, no link twice, sealed nodes here take no new links, one
 * creator and one caller per node, unique labels. Each failure names the archive's row.
 */
final class LinkRules {

    private static final String KINDS = "CASE l.type"
            + " WHEN 'create' THEN i.node_type LIKE 'process.calculation.%' AND o.node_type LIKE 'data.%'"
            + " WHEN 'return' THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'data.%'"
            + " WHEN 'input_calc' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.calculation.%'"
            + " WHEN 'input_work' THEN i.node_type LIKE 'data.%' AND o.node_type LIKE 'process.workflow.%'"
            + " WHEN 'call_calc' THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.calculation.%'"
            + " WHEN 'call_work' THEN i.node_type LIKE 'process.workflow.%' AND o.node_type LIKE 'process.workflow.%'"
            + " END";

    private LinkRules() {}

    static void check(Connection c) throws SQLException {
        fail(
                c,
                "SELECT max(ord), 'the link ' || min(input_uuid) || ' -> ' || min(output_uuid) || ' (' || type"
                        + " || ', ' || label || ') is given twice' FROM import_links GROUP BY input_id, output_id, type, label"
                        + " HAVING count(*) > 1 LIMIT 1");
        fail(
                c,
                "SELECT l.ord, upper(l.type) || ' cannot join ' || i.node_type || ' ' || l.input_uuid || ' to '"
                        + " || o.node_type || ' ' || l.output_uuid FROM import_links l JOIN node i ON i.id = l.input_id"
                        + " JOIN node o ON o.id = l.output_id WHERE l.is_new AND NOT (" + KINDS
                        + ") ORDER BY l.ord LIMIT 1");
        fail(
                c,
                "SELECT l.ord, 'node ' || n.uuid || ' is sealed here, and takes no new link (' || l.type || ' '"
                        + " || l.label || ')' FROM import_links l JOIN node n ON n.id IN (l.input_id, l.output_id)"
                        + " WHERE l.is_new AND (n.attributes->>'sealed') = 'true' AND NOT EXISTS (SELECT 1 FROM import_nodes"
                        + " i WHERE i.id = n.id AND i.is_new) ORDER BY l.ord LIMIT 1");
        degree(c, "'create'", "output_id", null, "output_uuid || ' would have a second creator'");
        degree(c, "'call_calc', 'call_work'", "output_id", null, "output_uuid || ' would have a second caller'");
        degree(c, "'create'", "input_id", "label", "input_uuid || ' would create two outputs labelled ' || label");
        degree(c, "'return'", "input_id", "label", "input_uuid || ' would return two outputs labelled ' || label");
        degree(
                c,
                "'input_calc', 'input_work'",
                "output_id",
                "label",
                "output_uuid || ' would take two inputs labelled ' || label");
    }

    /**
     * At most one link of {@code types} per {@code end} (and {@code label}): among the new links, and
     * between a new one and those here.
     */
    private static void degree(Connection c, String types, String end, String label, String why) throws SQLException {
        String by = end + (label == null ? "" : ", " + label);
        String here = "EXISTS (SELECT 1 FROM link x WHERE x." + end + " = l." + end + " AND x.type IN (" + types + ")"
                + (label == null ? "" : " AND x.label = l." + label) + ")";
        fail(
                c,
                "SELECT ord, 'node ' || " + why + " FROM (SELECT l.*, row_number() OVER (PARTITION BY " + by
                        + " ORDER BY ord) AS nth FROM import_links l WHERE is_new AND type IN (" + types + ")) l"
                        + " WHERE nth > 1 OR " + here + " ORDER BY ord LIMIT 1");
    }

    private static void fail(Connection c, String query) throws SQLException {
        RowChecks.fail(c, ArchivePart.LINKS, query);
    }
}
