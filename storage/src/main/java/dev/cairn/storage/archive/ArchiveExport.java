package dev.cairn.storage.archive;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.internal.Cursors;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.graph.traversal.TraversalRule;
import dev.cairn.storage.graph.traversal.internal.Closure;
import dev.cairn.storage.graph.traversal.internal.GraphTraversal;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Exports a piece of the graph, or all of it, from one REPEATABLE READ snapshot: the rows of each part
 * come out of PostgreSQL as JSON through COPY, straight into the writer, and the objects the nodes'
 * file trees name are read from the store in batches. Nothing is held in memory but one batch of keys.
 */
public final class ArchiveExport {

    /** Keys per bulk read of the object store. */
    private static final int OBJECT_BATCH = 10_000;
    /** COPY's CSV form with a quote and a delimiter that JSON text never holds raw: each line is the JSON. */
    static final String JSON_LINES = " WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')";

    private final Database database;
    private final Container container;
    private final String producer;

    /**
     * An export of the graph in {@code database}, with node files read from {@code container} (null when no exported
     * node has files); {@code producer} names the writer in the archive's header.
     */
    public ArchiveExport(Database database, Container container, String producer) {
        this.database = database;
        this.container = container;
        this.producer = producer;
    }

    /** Counts what {@link #export} would write, and checks it could: a test run. */
    public ArchiveHeader count(ExportRequest request) {
        return run(request, null, ArchiveProgress.NONE);
    }

    /** Writes the archive of {@code request} to {@code writer} (which the caller closes). */
    public ArchiveHeader export(ExportRequest request, ArchiveWriter writer, ArchiveProgress progress) {
        return run(request, writer, progress);
    }

    private ArchiveHeader run(ExportRequest request, ArchiveWriter writer, ArchiveProgress progress) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("SET LOCAL TimeZone = 'UTC'");
                }
                Closure closure = request.everything()
                        ? null
                        : new GraphTraversal(request.rules())
                                .run(c, NodeIds.entities(request.nodes(), request.groups(), request.computers()));
                ExportQueries q = new ExportQueries(request, closure == null ? null : closure.nodeTable());
                refuseUnsealed(c, q);
                Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
                for (ArchivePart part : ArchivePart.values()) {
                    counts.put(part, count(c, q.count(part)));
                }
                ArchiveHeader header = new ArchiveHeader(
                        HeaderJson.FORMAT, "1", producer, Instant.now(), parameters(c, request), counts);
                if (writer != null) {
                    write(c, q, header, writer, progress);
                }
                return header;
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "exporting " + request);
        } catch (IOException e) {
            throw new ArchiveIoException("writing the archive failed: " + e.getMessage(), e);
        }
    }

    private void write(
            Connection c, ExportQueries q, ArchiveHeader header, ArchiveWriter writer, ArchiveProgress progress)
            throws SQLException, IOException {
        writer.begin(header);
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        for (ArchivePart part : ArchivePart.ROWS) {
            long total = header.count(part);
            progress.update(part, 0, total);
            try (OutputStream rows = new LineProgress(writer.rows(part), part, total, progress)) {
                if (total > 0) {
                    copy.copyOut("COPY (" + q.rows(part) + ") TO STDOUT" + JSON_LINES, rows);
                }
            }
            progress.update(part, total, total);
        }
        writeObjects(c, q, header.count(ArchivePart.OBJECTS), writer, progress);
        writer.finish();
    }

    private void writeObjects(Connection c, ExportQueries q, long total, ArchiveWriter writer, ArchiveProgress progress)
            throws SQLException, IOException {
        progress.update(ArchivePart.OBJECTS, 0, total);
        long done = 0;
        try (PreparedStatement s = c.prepareStatement(q.objectKeys());
                Stream<String> keys = Cursors.rows(s, r -> r.getString(1))) {
            List<ObjectKey> batch = new ArrayList<>(OBJECT_BATCH);
            var it = keys.iterator();
            while (it.hasNext()) {
                batch.add(ObjectKey.of(it.next()));
                if (batch.size() == OBJECT_BATCH || !it.hasNext()) {
                    container.streamAll(batch, writer::object);
                    done += batch.size();
                    progress.update(ArchivePart.OBJECTS, done, total);
                    batch.clear();
                }
            }
        }
        progress.update(ArchivePart.OBJECTS, total, total);
    }

    private static void refuseUnsealed(Connection c, ExportQueries q) throws SQLException {
        List<String> some = new ArrayList<>();
        long unsealed = 0;
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(q.unsealed())) {
            while (r.next()) {
                unsealed = r.getLong(3);
                some.add(r.getString(1) + " (" + r.getString(2) + ")");
            }
        }
        if (unsealed > 0) {
            throw new ConflictException(unsealed + " process node(s) of the export are not sealed, and an archive"
                    + " holds finished provenance only: " + String.join(", ", some)
                    + (unsealed > some.size() ? ", ..." : "") + "; wait for them to end, or kill them");
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The header's creation parameters: the starting set by uuid, the rules, what was included. */
    private static Map<String, Object> parameters(Connection c, ExportRequest request) throws SQLException {
        Map<String, Object> p = new LinkedHashMap<>();
        if (request.everything()) {
            p.put("entities", null);
        } else {
            Map<String, Object> entities = new LinkedHashMap<>();
            entities.put("nodes", uuids(c, "node", request.nodes()));
            entities.put("groups", uuids(c, "node_group", request.groups()));
            entities.put("computers", uuids(c, "computer", request.computers()));
            p.put("entities", entities);
        }
        Map<String, Object> rules = new LinkedHashMap<>();
        for (TraversalRule rule : request.rules().rules()) {
            rules.put(rule.name(), rule.enabled());
        }
        p.put("traversal_rules", rules);
        p.put("include_comments", request.includeComments());
        p.put("include_logs", request.includeLogs());
        p.put("include_authinfos", request.includeAuthinfos());
        return p;
    }

    private static List<String> uuids(Connection c, String table, long[] ids) throws SQLException {
        List<String> uuids = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement("SELECT uuid::text FROM " + table + " WHERE id = ANY (?) ORDER BY id")) {
            s.setObject(1, ids);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    uuids.add(r.getString(1));
                }
            }
        }
        return uuids;
    }

    /** Tells the progress listener how many rows went by, every 64 KiB or so. */
    private static final class LineProgress extends FilterOutputStream {
        private final ArchivePart part;
        private final long total;
        private final ArchiveProgress progress;
        private long lines;
        private long sinceReport;

        LineProgress(OutputStream out, ArchivePart part, long total, ArchiveProgress progress) {
            super(out);
            this.part = part;
            this.total = total;
            this.progress = progress;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    lines++;
                }
            }
            sinceReport += len;
            if (sinceReport > 1 << 16) {
                sinceReport = 0;
                progress.update(part, lines, total);
            }
        }
    }
}
