package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The graph's link rules, checked on the archive's resolved links ({@code import_links}) before any is
 * inserted: the kinds of node each type joins (the database's {@code link_joins}, as the link guard
 * asks it), no link twice, sealed nodes here take no new links, one
 * creator and one caller per node, unique labels. Each failure names the archive's row.
 */
final class LinkRules {

    private LinkRules() {}

    static void check(Connection c) throws SQLException {
        fail(
                c,
                "SELECT max(ord), 'the link ' || min(input_uuid) || ' -> ' || min(output_uuid) || ' (' || type"
                        + " || ', ' || label || ') is given twice' FROM import_links GROUP BY input_id, output_id, type, label"
                        + " HAVING count(*) > 1 LIMIT 1");
        fail(
                c,
                "SELECT ord, upper(type) || ' cannot join ' || input_type || ' ' || input_uuid || ' to '"
                        + " || output_type || ' ' || output_uuid FROM import_links WHERE is_new AND NOT link_joins(type, input_type, output_type)"
                        + " ORDER BY ord LIMIT 1");
        // Only a node that was here already can be sealed here: the few such ends are looked up, not every link's.
        fail(
                c,
                "SELECT e.ord, 'node ' || n.uuid || ' is sealed here, and takes no new link (' || e.type || ' '"
                        + " || e.label || ')' FROM (SELECT ord, input_id AS id, type, label FROM import_links WHERE is_new AND"
                        + " NOT input_new UNION ALL SELECT ord, output_id, type, label FROM import_links WHERE is_new AND NOT"
                        + " output_new) e JOIN node n ON n.id = e.id WHERE (n.attributes->>'sealed') = 'true'"
                        + " ORDER BY e.ord LIMIT 1");
        degree(c, "'create'", "output", null, "output_uuid || ' would have a second creator'");
        degree(c, "'call_calc', 'call_work'", "output", null, "output_uuid || ' would have a second caller'");
        degree(c, "'create'", "input", "label", "input_uuid || ' would create two outputs labelled ' || label");
        degree(c, "'return'", "input", "label", "input_uuid || ' would return two outputs labelled ' || label");
        degree(
                c,
                "'input_calc', 'input_work'",
                "output",
                "label",
                "output_uuid || ' would take two inputs labelled ' || label");
    }

    /**
     * At most one link of {@code types} per {@code end} node (and {@code label}): among the new links, and
     * between a new one and those here (which only a node that was here already can have).
     */
    private static void degree(Connection c, String types, String end, String label, String why) throws SQLException {
        String id = end + "_id";
        String by = id + (label == null ? "" : ", " + label);
        String here = "(NOT " + end + "_new AND EXISTS (SELECT 1 FROM link x WHERE x." + id + " = l." + id
                + " AND x.type IN (" + types + ")" + (label == null ? "" : " AND x.label = l." + label) + "))";
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
