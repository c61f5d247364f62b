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
 * Computes the hashes of the processes an import adds, by this installation's rules, before they are
 * inserted (so no row is written twice), and so that imported calculations are cache sources at once:
 * from their inputs' hashes, found through the staged links (the data's were made as they streamed in,
 * see {@link NodeIntake}). Pages of rows are hashed in parallel and kept in {@code import_hashes (ord,
 * hash)}, which the processes' insert joins (rather than an update that writes every staged process again).
 */
final class ImportHashes {

    private static final int PAGE = 5_000;
    private static final String LINKS = Staging.table(ArchivePart.LINKS);

    private ImportHashes() {}

    static void compute(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE import_hashes (ord bigint PRIMARY KEY, hash text NOT NULL) ON COMMIT DROP");
            // an input outside the archive is looked up here by its key, not by a join that reads all of node
            s.execute("CREATE TEMP TABLE import_inputs ON COMMIT DROP AS SELECT process, jsonb_object_agg(label, hash)"
                    + " AS inputs, bool_and(hash IS NOT NULL) AS hashable FROM (SELECT (l.doc->>'output')::uuid AS"
                    + " process, l.doc->>'label' AS label, coalesce(i.hash, (SELECT n.hash FROM node n WHERE n.uuid ="
                    + " (l.doc->>'input')::uuid)) AS hash FROM " + LINKS + " l"
                    + " LEFT JOIN import_nodes i ON i.uuid = (l.doc->>'input')::uuid"
                    + " WHERE l.doc->>'type' IN ('input_calc', 'input_work')) x GROUP BY process");
            s.execute("ALTER TABLE import_inputs ADD PRIMARY KEY (process)");
        }
        long last = 0;
        try (PreparedStatement page = c.prepareStatement("SELECT p.ord, p.node_type, p.process_type,"
                + " p.attributes::text, p.repository_metadata::text, x.uuid, q.inputs, coalesce(q.hashable, true)"
                + " FROM import_processes p LEFT JOIN computer x ON x.id = p.computer_id"
                + " LEFT JOIN import_inputs q ON q.process = p.uuid WHERE p.ord > ? ORDER BY p.ord LIMIT " + PAGE)) {
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
                last = rows.get(rows.size() - 1).ord();
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE import_hashes");
        }
    }

    private record Row(
            long ord,
            String nodeType,
            String processType,
            String attributes,
            String files,
            UUID computer,
            String inputs,
            boolean hashable) {}

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
                text.append(rows.get(i).ord())
                        .append('\t')
                        .append(hashes.get(i))
                        .append('\n');
            }
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY import_hashes (ord, hash) FROM STDIN");
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
