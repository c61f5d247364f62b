package dev.cairn.storage.graph.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The statistics' change rows for the nodes Cairn inserts, written by the statement that inserts them
 * or, after a COPY, by one statement per batch (the migration {@code node_tally_written_with_nodes}).
 * Cairn's connections tell the database so (the pool sets {@code cairn.node_tally} on each, see
 * {@link dev.cairn.storage.db.Database}), and its row trigger, which counts the nodes other sessions
 * insert, then stays idle. Every statement of Cairn that inserts
 * nodes must count them here; state changes, deletions and truncation are counted by triggers.
 */
public final class NodeTallies {

    private static final String CHANGE_COLUMNS =
            "INSERT INTO node_tally_change (node_type, process_type, process_state, paused, user_id, day, nodes)";

    /** A node's key in the tallies, from its row's columns, as the migration's functions read it. */
    private static final String KEY = "node_type, coalesce(process_type, ''), node_tally_state(node_type, attributes),"
            + " node_tally_paused(node_type, attributes), user_id, (ctime AT TIME ZONE 'UTC')::date";

    /**
     * For the {@code RETURNING} list of an {@code INSERT INTO node}: the key of each row inserted, as
     * columns {@code tally_type ... tally_day} that {@link #countReturned} counts.
     */
    public static final String RETURNING_KEY = "node_type AS tally_type, coalesce(process_type, '') AS tally_process,"
            + " node_tally_state(node_type, attributes) AS tally_state,"
            + " node_tally_paused(node_type, attributes) AS tally_paused, user_id AS tally_user,"
            + " (ctime AT TIME ZONE 'UTC')::date AS tally_day";

    private static final String COUNT_STORED =
            CHANGE_COLUMNS + " SELECT " + KEY + ", count(*) FROM node WHERE id = ANY (?) GROUP BY 1, 2, 3, 4, 5, 6";

    private NodeTallies() {}

    /**
     * A data-modifying CTE body that counts the rows of {@code insertCte}, an {@code INSERT INTO node}
     * whose {@code RETURNING} list holds {@link #RETURNING_KEY}: one change row per key.
     */
    public static String countReturned(String insertCte) {
        return CHANGE_COLUMNS + " SELECT tally_type, tally_process, tally_state, tally_paused, tally_user, tally_day,"
                + " count(*) FROM " + insertCte + " GROUP BY 1, 2, 3, 4, 5, 6";
    }

    /** Counts the nodes with these ids, inserted in this transaction by a statement that did not count them. */
    public static void countStored(Connection c, long[] ids) throws SQLException {
        if (ids.length == 0) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement(COUNT_STORED)) {
            Long[] boxed = new Long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                boxed[i] = ids[i];
            }
            s.setArray(1, c.createArrayOf("bigint", boxed));
            s.executeUpdate();
        }
    }
}
