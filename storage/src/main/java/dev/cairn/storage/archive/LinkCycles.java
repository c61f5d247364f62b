package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

/**
 * Refuses an archive whose new links would close a cycle in the provenance (CREATE, INPUT_CALC and the
 * CALL links; a workflow may return its own input). Only new links can: every link touches a process,
 * and a process already here is sealed and takes none. The database numbers the links' ends densely, so
 * the heap holds Kahn's algorithm over int arrays, about 24 bytes a link: it runs while the objects are
 * read, beside their buffers.
 */
final class LinkCycles {

    private static final String NEW_EDGES = "is_new AND type IN ('create', 'input_calc', 'call_calc', 'call_work')";

    private LinkCycles() {}

    static void check(Connection c) throws SQLException {
        int n;
        int m;
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE import_cycle_ends ON COMMIT DROP AS SELECT id, (row_number() OVER (ORDER BY"
                    + " id) - 1)::int AS ix FROM (SELECT input_id AS id FROM import_links WHERE " + NEW_EDGES
                    + " UNION SELECT output_id FROM import_links WHERE " + NEW_EDGES + ") u");
            n = count(s, "SELECT count(*) FROM import_cycle_ends");
            m = count(s, "SELECT count(*) FROM import_links WHERE " + NEW_EDGES);
        }
        int[] from = new int[m];
        int[] to = new int[m];
        try (Statement s = c.createStatement()) {
            s.setFetchSize(50_000);
            try (ResultSet r = s.executeQuery("SELECT a.ix, b.ix FROM import_links l JOIN import_cycle_ends a ON a.id ="
                    + " l.input_id JOIN import_cycle_ends b ON b.id = l.output_id WHERE " + NEW_EDGES)) {
                for (int e = 0; r.next(); e++) {
                    from[e] = r.getInt(1);
                    to[e] = r.getInt(2);
                }
            }
        }
        int[] indegree = new int[n];
        int[] start = new int[n + 1];
        for (int e = 0; e < m; e++) {
            start[from[e] + 1]++;
            indegree[to[e]]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] targets = new int[m];
        int[] fill = Arrays.copyOf(start, n);
        for (int e = 0; e < m; e++) {
            targets[fill[from[e]]++] = to[e];
        }
        // the adjacency holds the links from here on: the heap may have the rest back
        from = null;
        to = null;
        fill = null;
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int v = 0; v < n; v++) {
            if (indegree[v] == 0) {
                queue[tail++] = v;
            }
        }
        while (head < tail) {
            int v = queue[head++];
            for (int e = start[v]; e < start[v + 1]; e++) {
                if (--indegree[targets[e]] == 0) {
                    queue[tail++] = targets[e];
                }
            }
        }
        if (tail < n) {
            for (int v = 0; v < n; v++) {
                if (indegree[v] > 0) {
                    throw new InvalidArchiveException("the archive's links form a cycle, which provenance cannot have:"
                            + " node " + uuid(c, v) + " is on it or after it");
                }
            }
        }
    }

    private static int count(Statement s, String query) throws SQLException {
        try (ResultSet r = s.executeQuery(query)) {
            r.next();
            return Math.toIntExact(r.getLong(1));
        }
    }

    private static String uuid(Connection c, int ix) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT n.uuid FROM import_cycle_ends e JOIN node n ON n.id = e.id WHERE e.ix = " + ix)) {
            r.next();
            return r.getString(1);
        }
    }
}
