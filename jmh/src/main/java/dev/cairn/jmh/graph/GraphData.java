package dev.cairn.jmh.graph;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The query benchmarks' data, written with COPY straight into the schema: structure-like nodes
 * (cell 3x3, pbc1..3, 2-3 kinds, 8-64 sites, as aiida-core's peer script makes them) and
 * provenance trees (each data node above depth D is the single INPUT_CALC {@code x} input of a
 * calcfunction node that CREATEs B outputs {@code out_0..}).
 */
public final class GraphData {

    public static final String STRUCTURE = "data.core.structure.StructureData.";
    static final String INT = "data.core.int.Int.";
    static final String CALCFUNCTION = "process.calculation.calcfunction.CalcFunctionNode.";
    private static final String[] ELEMENTS = {"Ba", "Ti", "O", "Si", "Sr", "Ca"};
    private static final double[] MASSES = {137.327, 47.867, 15.999, 28.085, 87.62, 40.078};
    private static final int COPY_ROWS = 10_000;

    private GraphData() {}

    /** The id of the benchmark user, created if missing. */
    public static long user(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO app_user (email) VALUES ('bench@cairn.dev') ON CONFLICT (email) DO NOTHING");
            try (ResultSet rs = s.executeQuery("SELECT id FROM app_user WHERE email = 'bench@cairn.dev'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Copies {@code n} structure-like nodes; returns the seconds spent in COPY (generation excluded). */
    public static double structures(Connection c, int n, long seed) throws SQLException, IOException {
        long user = user(c);
        Random rng = new Random(seed);
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        double seconds = 0;
        for (int start = 0; start < n; start += COPY_ROWS) {
            StringBuilder rows = new StringBuilder(COPY_ROWS * 3600);
            for (int i = start; i < Math.min(n, start + COPY_ROWS); i++) {
                nodeRow(rows, STRUCTURE, null, user, structure(rng));
            }
            long t = System.nanoTime();
            copyNodes(copy, rows);
            seconds += (System.nanoTime() - t) / 1e9;
        }
        return seconds;
    }

    /** Builds {@code trees} trees of branching {@code b} and depth {@code d}; returns the root ids. */
    public static List<Long> trees(Connection c, int trees, int b, int d) throws SQLException, IOException {
        long user = user(c);
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        List<Long> roots = insertNodes(c, copy, INT, trees, user, i -> "{\"value\": " + i + "}");
        List<Long> frontier = roots;
        for (int depth = 0; depth < d; depth++) {
            List<Long> calcs = insertNodes(
                    c,
                    copy,
                    CALCFUNCTION,
                    frontier.size(),
                    user,
                    i -> "{\"process_state\": \"finished\", \"exit_status\": 0, \"function_name\": \"split\"}");
            List<Long> outputs = insertNodes(c, copy, INT, calcs.size() * b, user, i -> "{\"value\": " + (i % b) + "}");
            StringBuilder links = new StringBuilder();
            for (int k = 0; k < calcs.size(); k++) {
                links.append(frontier.get(k)).append('\t').append(calcs.get(k)).append("\tinput_calc\tx\n");
                for (int j = 0; j < b; j++) {
                    links.append(calcs.get(k))
                            .append('\t')
                            .append(outputs.get(k * b + j))
                            .append("\tcreate\tout_")
                            .append(j)
                            .append('\n');
                }
            }
            copy.copyIn("COPY link (input_id, output_id, type, label) FROM STDIN", new StringReader(links.toString()));
            frontier = outputs;
        }
        return roots;
    }

    private interface Attributes {
        String of(int index);
    }

    /** COPY assigns identity values in row order within this session: the ids are the next n. */
    private static List<Long> insertNodes(
            Connection c, CopyManager copy, String type, int n, long user, Attributes attributes)
            throws SQLException, IOException {
        long before = maxId(c);
        for (int start = 0; start < n; start += COPY_ROWS) {
            StringBuilder rows = new StringBuilder();
            for (int i = start; i < Math.min(n, start + COPY_ROWS); i++) {
                nodeRow(rows, type, type.startsWith("process.") ? "bench.split" : null, user, attributes.of(i));
            }
            copyNodes(copy, rows);
        }
        List<Long> ids = new ArrayList<>(n);
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM node WHERE id > " + before + " ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        if (ids.size() != n) {
            throw new IllegalStateException("expected " + n + " new nodes, found " + ids.size() + ": another writer?");
        }
        return ids;
    }

    private static long maxId(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(max(id), 0) FROM node")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void copyNodes(CopyManager copy, StringBuilder rows) throws SQLException, IOException {
        copy.copyIn(
                "COPY node (uuid, node_type, process_type, label, ctime, mtime, user_id, attributes) FROM STDIN",
                new StringReader(rows.toString()));
    }

    private static void nodeRow(StringBuilder out, String type, String processType, long user, String attributes) {
        out.append(UUID.randomUUID())
                .append('\t')
                .append(type)
                .append('\t')
                .append(processType == null ? "\\N" : processType)
                .append("\tbench\tnow\tnow\t")
                .append(user)
                .append('\t')
                .append(attributes)
                .append('\n');
    }

    /** The attributes of one structure, as JSON text. */
    static String structure(Random rng) {
        int nkinds = rng.nextBoolean() ? 2 : 3;
        int[] chosen = rng.ints(0, ELEMENTS.length).distinct().limit(nkinds).toArray();
        double a = 3.0 + 9.0 * rng.nextDouble();
        double[][] cell = {
            {a, 0.0, 0.0}, {rng.nextDouble() - 0.5, a, 0.0}, {rng.nextDouble() - 0.5, rng.nextDouble() - 0.5, a}
        };
        StringBuilder s = new StringBuilder(4096).append("{\"cell\": [");
        for (int i = 0; i < 3; i++) {
            s.append(i == 0 ? "[" : ", [")
                    .append(cell[i][0])
                    .append(", ")
                    .append(cell[i][1])
                    .append(", ")
                    .append(cell[i][2])
                    .append(']');
        }
        s.append("], \"pbc1\": true, \"pbc2\": true, \"pbc3\": true, \"kinds\": [");
        for (int k = 0; k < nkinds; k++) {
            String sym = ELEMENTS[chosen[k]];
            s.append(k == 0 ? "" : ", ")
                    .append("{\"name\": \"")
                    .append(sym)
                    .append("\", \"symbols\": [\"")
                    .append(sym)
                    .append("\"], \"weights\": [1.0], \"mass\": ")
                    .append(MASSES[chosen[k]])
                    .append('}');
        }
        s.append("], \"sites\": [");
        int nsites = 8 + rng.nextInt(57);
        for (int i = 0; i < nsites; i++) {
            String kind = ELEMENTS[chosen[i < nkinds ? i : rng.nextInt(nkinds)]];
            s.append(i == 0 ? "" : ", ")
                    .append("{\"kind_name\": \"")
                    .append(kind)
                    .append("\", \"position\": [")
                    .append(a * rng.nextDouble())
                    .append(", ")
                    .append(a * rng.nextDouble())
                    .append(", ")
                    .append(a * rng.nextDouble())
                    .append("]}");
        }
        return s.append("]}").toString();
    }
}
