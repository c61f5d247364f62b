package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

/**
 * Refuses an archive whose new links would close a cycle in the provenance (CREATE, INPUT_CALC and the
 * CALL links; a workflow may return its own input). Only new links can: every link touches a process,
 * and a process already here is sealed and takes none. Kahn's algorithm over primitive arrays, so a
 * million links cost tens of megabytes, not a map of boxed ids.
 */
final class LinkCycles {

    private LinkCycles() {}

    static void check(Connection c) throws SQLException {
        long[] from = new long[1024];
        long[] to = new long[1024];
        int m = 0;
        try (Statement s = c.createStatement()) {
            s.setFetchSize(50_000);
            try (ResultSet r = s.executeQuery("SELECT input_id, output_id FROM import_links WHERE is_new AND type IN"
                    + " ('create', 'input_calc', 'call_calc', 'call_work')")) {
                while (r.next()) {
                    if (m == from.length) {
                        from = Arrays.copyOf(from, m * 2);
                        to = Arrays.copyOf(to, m * 2);
                    }
                    from[m] = r.getLong(1);
                    to[m] = r.getLong(2);
                    m++;
                }
            }
        }
        long[] ids = distinct(from, to, m);
        int n = ids.length;
        int[] indegree = new int[n];
        int[] start = new int[n + 1];
        for (int e = 0; e < m; e++) {
            start[index(ids, from[e]) + 1]++;
            indegree[index(ids, to[e])]++;
        }
        for (int v = 0; v < n; v++) {
            start[v + 1] += start[v];
        }
        int[] targets = new int[m];
        int[] fill = Arrays.copyOf(start, n);
        for (int e = 0; e < m; e++) {
            targets[fill[index(ids, from[e])]++] = index(ids, to[e]);
        }
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
                            + " node " + uuid(c, ids[v]) + " is on it or after it");
                }
            }
        }
    }

    private static long[] distinct(long[] from, long[] to, int m) {
        long[] all = new long[2 * m];
        System.arraycopy(from, 0, all, 0, m);
        System.arraycopy(to, 0, all, m, m);
        Arrays.sort(all);
        int k = 0;
        for (int i = 0; i < all.length; i++) {
            if (i == 0 || all[i] != all[i - 1]) {
                all[k++] = all[i];
            }
        }
        return Arrays.copyOf(all, k);
    }

    private static int index(long[] ids, long id) {
        return Arrays.binarySearch(ids, id);
    }

    private static String uuid(Connection c, long id) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT uuid FROM node WHERE id = " + id)) {
            r.next();
            return r.getString(1);
        }
    }
}
