package dev.cairn.storage.archive;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.StoredRowHashes;

/**
 * Computes the hashes of the nodes an import added, by this installation's rules, so that imported
 * calculations are cache sources at once: the data first, then the processes from their inputs' hashes.
 * Pages of nodes are read by id, hashed in parallel, and written back through COPY and one UPDATE.
 */
final class ImportHashes {

    private static final int PAGE = 5_000;

    private ImportHashes() {}

    static void compute(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE import_hashes (id bigint PRIMARY KEY, hash text NOT NULL) ON COMMIT DROP");
        }
        pass(c, "n.node_type LIKE 'data.%'", "NULL::jsonb, true");
        pass(
                c,
                "n.node_type LIKE 'process.%'",
                "(SELECT jsonb_object_agg(l.label, x.hash) FROM link l JOIN node x ON"
                        + " x.id = l.input_id WHERE l.output_id = n.id AND l.type IN ('input_calc', 'input_work')),"
                        + " (SELECT coalesce(bool_and(x.hash IS NOT NULL), true) FROM link l JOIN node x ON x.id = l.input_id"
                        + " WHERE l.output_id = n.id AND l.type IN ('input_calc', 'input_work'))");
    }

    private record Row(
            long id,
            String nodeType,
            String processType,
            String attributes,
            String files,
            UUID computer,
            String inputs,
            boolean hashable) {}

    private static void pass(Connection c, String which, String inputs) throws SQLException {
        long last = 0;
        try (PreparedStatement page = c.prepareStatement("SELECT n.id, n.node_type, n.process_type, n.attributes::text,"
                + " n.repository_metadata::text, x.uuid, " + inputs + " FROM import_nodes i JOIN node n ON n.id = i.id"
                + " LEFT JOIN computer x ON x.id = n.computer_id WHERE i.is_new AND " + which + " AND n.id > ?"
                + " ORDER BY n.id LIMIT " + PAGE)) {
            while (true) {
                page.setLong(1, last);
                List<Row> rows = new ArrayList<>(PAGE);
                try (ResultSet r = page.executeQuery()) {
                    while (r.next()) {
                        rows.add(new Row(
                                r.getLong(1),
                                r.getString(2),
                                r.getString(3),
                                r.getString(4),
                                r.getString(5),
                                r.getObject(6, UUID.class),
                                r.getString(7),
                                r.getBoolean(8)));
                    }
                }
                if (rows.isEmpty()) {
                    break;
                }
                List<String> hashes =
                        rows.parallelStream().map(ImportHashes::hash).toList();
                write(c, rows, hashes);
                last = rows.get(rows.size() - 1).id();
            }
        }
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE node n SET hash = h.hash FROM import_hashes h WHERE n.id = h.id");
            s.execute("TRUNCATE import_hashes");
        }
    }

    /** The node's hash, or null for a process with an input that has none (it cannot be a cache source). */
    @SuppressWarnings("unchecked")
    private static String hash(Row row) {
        if (!row.hashable()) {
            return null;
        }
        Map<String, String> inputs =
                row.inputs() == null ? Map.of() : (Map<String, String>) (Map<?, ?>) JsonCodec.readObject(row.inputs());
        return StoredRowHashes.hash(
                row.nodeType(),
                row.processType(),
                JsonCodec.readObject(row.attributes()),
                JsonCodec.readObject(row.files()),
                row.computer(),
                inputs);
    }

    private static void write(Connection c, List<Row> rows, List<String> hashes) throws SQLException {
        StringBuilder text = new StringBuilder(rows.size() * 80);
        for (int i = 0; i < rows.size(); i++) {
            if (hashes.get(i) != null) {
                text.append(rows.get(i).id()).append('\t').append(hashes.get(i)).append('\n');
            }
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY import_hashes (id, hash) FROM STDIN");
        try {
            copy.writeToCopy(bytes, 0, bytes.length);
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }
}
