package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.db.internal.CopyRows;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.graph.internal.NodeTallies;

/**
 * The nodes part of an import, as it streams. Each row is parsed once, checked ({@link NodeRowChecks},
 * and its user and computer known), and looked up by uuid a batch at a time:
 *
 * <ul>
 *   <li>a new data node goes straight into {@code node} by COPY, with its hash and an id drawn from the
 *       node sequence;
 *   <li>a new process waits in {@code import_processes}, with its id, until the links tell its inputs
 *       (its hash is made of theirs);
 *   <li>a node here already gives only its extras, to {@code import_extras}, for the merge.
 * </ul>
 *
 * {@code import_nodes (ord, uuid, node_type, id, is_new, hash)} maps every node of the archive to its id
 * here, for the parts that follow; the import group, made with the first new node, gets its members as
 * they come. Only the new processes are staged whole, so an import writes almost every new row once and
 * a second import of the same archive writes almost nothing.
 *
 * <p>The look-ups by uuid and the ids drawn from the node sequence ({@link NodeLookups}) run on the
 * reading thread, through a second connection, so that the import's own backend, which the COPYs keep
 * busy, spends nothing on them. A uuid given twice in the archive, which the look-ups (seeing only
 * committed nodes) take for new both times, is found by the import's keys (import_nodes', or node's own).
 */
final class NodeIntake {

    private static final int BATCH_ROWS = 2_000;
    private static final int BATCH_BYTES = 4 << 20;
    private static final Pattern DUPLICATE_UUID = Pattern.compile("\\(uuid\\)=\\(([0-9a-f-]{36})\\)");
    private static final String NODE_COLUMNS = "id, uuid, node_type, process_type, label, description, ctime,"
            + " mtime, user_id, computer_id, attributes, extras, repository_metadata, hash";

    private final Connection c;
    private final NodeLookups lookups;
    private final CopyManager copies;
    private final NodeRowChecks checks;
    private final Map<String, Long> users = new HashMap<>();
    private final Map<String, IntakeRow.Computer> computers = new HashMap<>();
    /** Writes one batch while the next is parsed: the database's work and the parsing overlap. */
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "cairn-import-nodes");
        t.setDaemon(true);
        return t;
    });

    /** The COPYs' buffer, one COPY at a time on the writer's connection. */
    private final byte[] copyBuffer = new byte[1 << 20];

    private final String groupLabel;
    private final long userId;
    private EntityImports.ImportGroup group;
    private long added;
    private long existing;

    /**
     * Call once the archive's users and computers are in: rows name them. {@code lookups} is a connection
     * of the same database, in autocommit, for the look-ups. The import group, labelled {@code groupLabel}
     * (or the first free {@code groupLabel_<n>}) and owned by {@code userId}, is made with the first new
     * node.
     */
    NodeIntake(Connection c, Connection lookups, String groupLabel, long userId) throws SQLException {
        this.c = c;
        this.lookups = new NodeLookups(lookups);
        this.groupLabel = groupLabel;
        this.userId = userId;
        this.copies = c.unwrap(PGConnection.class).getCopyAPI();
        this.checks = new NodeRowChecks();
        try (Statement s = c.createStatement()) {
            // locked, as a foreign key's check would lock the rows the nodes name (ForeignKeyChecks)
            try (ResultSet r = s.executeQuery("SELECT email, id FROM app_user FOR KEY SHARE")) {
                while (r.next()) {
                    users.put(r.getString(1), r.getLong(2));
                }
            }
            try (ResultSet r = s.executeQuery("SELECT uuid, id FROM computer FOR KEY SHARE")) {
                while (r.next()) {
                    UUID uuid = r.getObject(1, UUID.class);
                    computers.put(uuid.toString(), new IntakeRow.Computer(r.getLong(2), uuid));
                }
            }
            // the key finds a uuid given twice in two batches (the second found the first here) at its row
            s.execute("CREATE TEMP TABLE import_nodes (ord bigint NOT NULL, uuid uuid PRIMARY KEY, node_type text NOT"
                    + " NULL, id bigint NOT NULL, is_new boolean NOT NULL, hash text) ON COMMIT DROP");
            s.execute("CREATE TEMP TABLE import_processes (ord bigint NOT NULL, LIKE node) ON COMMIT DROP");
            s.execute("CREATE TEMP TABLE import_extras (id bigint NOT NULL, extras jsonb NOT NULL) ON COMMIT DROP");
        }
    }

    /**
     * Reads the part to its end; {@code progress} hears of every batch. A batch is written (on the
     * writer thread, the only one then using the connection) while the next one is parsed.
     */
    void read(InputStream ndjson, long total, ArchiveProgress progress) throws IOException, SQLException {
        LineReader lines = new LineReader(ndjson);
        long ord = 0;
        List<IntakeRow> batch = new ArrayList<>(BATCH_ROWS);
        long batchBytes = 0;
        Set<UUID> inBatch = new HashSet<>();
        Future<?> writing = null;
        try {
            while (lines.next()) {
                ord++;
                IntakeRow row = row(ord, lines);
                if (!inBatch.add(row.uuid)) {
                    throw rowError(ord, "uuid " + row.uuid + " is given twice");
                }
                batch.add(row);
                batchBytes += lines.length();
                if (batch.size() == BATCH_ROWS || batchBytes >= BATCH_BYTES) {
                    Batch ready = lookUp(batch);
                    finish(writing);
                    writing = writer.submit(() -> {
                        write(ready);
                        return null;
                    });
                    batch = new ArrayList<>(BATCH_ROWS);
                    batchBytes = 0;
                    inBatch.clear();
                    progress.update(ArchivePart.NODES, ord, total);
                }
            }
            Batch last = lookUp(batch);
            finish(writing);
            writing = null;
            write(last);
        } finally {
            if (writing != null) {
                awaitQuietly(writing);
            }
            writer.shutdown();
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE INDEX ON import_nodes (id) INCLUDE (is_new, node_type)");
            s.execute("CREATE INDEX ON import_processes (ord)");
            s.execute("ANALYZE import_nodes");
            s.execute("ANALYZE import_processes");
        }
    }

    /** New nodes (inserted now, or waiting in import_processes). */
    long added() {
        return added;
    }

    /** The import group, made with the first new node; null if there was none. */
    EntityImports.ImportGroup group() {
        return group;
    }

    /** Nodes of the archive that were here already. */
    long existing() {
        return existing;
    }

    private IntakeRow row(long ord, LineReader line) {
        if (line.length() == 0) {
            throw rowError(ord, "an empty line where a JSON object should be");
        }
        Object parsed;
        try {
            parsed = JsonCodec.read(line.bytes(), 0, line.length());
        } catch (InvalidInputException e) {
            throw rowError(ord, "not one JSON object per line (" + e.getMessage() + ")");
        }
        String problem = checks.problem(parsed);
        if (problem != null) {
            throw rowError(ord, problem);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) parsed;
        UUID uuid = UUID.fromString((String) doc.get("uuid"));
        Long user = users.get((String) doc.get("user"));
        if (user == null) {
            throw rowError(
                    ord,
                    "node " + uuid + " names user " + doc.get("user") + ", who is neither in the archive nor here");
        }
        IntakeRow.Computer computer = null;
        if (doc.get("computer") instanceof String named) {
            computer = computers.get(named.toLowerCase(Locale.ROOT));
            if (computer == null) {
                throw rowError(
                        ord,
                        "node " + uuid + " names computer " + named + ", which is neither in the archive nor here");
            }
        }
        return new IntakeRow(ord, uuid, doc, user, computer);
    }

    /**
     * Waits for a batch being written after the read failed, however long, interrupted or not: the
     * connection is the writer's until its batch is done, and a batch left running would go on into
     * the next user's transaction.
     */
    private static void awaitQuietly(Future<?> writing) {
        boolean interrupted = false;
        while (true) {
            try {
                writing.get();
                break;
            } catch (ExecutionException e) {
                break; // the read's own failure is the one to report
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the batch being written; its failure is the read's. */
    private static void finish(Future<?> writing) throws SQLException {
        if (writing == null) {
            return;
        }
        try {
            writing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArchiveIoException("the import was interrupted", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case SQLException sql -> throw sql;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** A batch of rows, with the ids of those here already and of the new ones (prepared). */
    private record Batch(List<IntakeRow> rows, Map<UUID, Long> here, Map<UUID, Long> freshIds, List<IntakeRow> fresh) {}

    /** Looks the batch's uuids up, draws ids for the new rows and prepares them: the reading thread's share. */
    private Batch lookUp(List<IntakeRow> batch) throws SQLException {
        Map<UUID, Long> here = lookups.here(batch);
        List<IntakeRow> fresh =
                batch.stream().filter(r -> !here.containsKey(r.uuid)).toList();
        long[] ids = lookups.reserveIds(fresh.size());
        Map<UUID, Long> freshIds = new HashMap<>();
        for (int i = 0; i < fresh.size(); i++) {
            freshIds.put(fresh.get(i).uuid, ids[i]);
        }
        fresh.parallelStream().forEach(IntakeRow::prepare);
        return new Batch(batch, here, freshIds, fresh);
    }

    private void write(Batch ready) throws SQLException {
        List<IntakeRow> batch = ready.rows();
        if (batch.isEmpty()) {
            return;
        }
        Map<UUID, Long> here = ready.here();
        Map<UUID, Long> freshIds = ready.freshIds();
        List<IntakeRow> fresh = ready.fresh();
        List<IntakeRow> data = fresh.stream().filter(r -> !r.process()).toList();
        List<IntakeRow> processes = fresh.stream().filter(IntakeRow::process).toList();
        List<IntakeRow> old =
                batch.stream().filter(r -> here.containsKey(r.uuid)).toList();
        copy(
                "node (" + NODE_COLUMNS + ")",
                batch,
                data,
                (rows, r) -> rows.number(freshIds.get(r.uuid))
                        .fields(r.columns())
                        .text(r.hash())
                        .endRow());
        NodeTallies.countStored(
                c, data.stream().mapToLong(r -> freshIds.get(r.uuid)).toArray());
        copy(
                "import_processes (ord, " + NODE_COLUMNS + ")",
                batch,
                processes,
                (rows, r) -> rows.number(r.ord)
                        .number(freshIds.get(r.uuid))
                        .fields(r.columns())
                        .text(null)
                        .endRow());
        copy(
                "import_extras (id, extras)",
                batch,
                old,
                (rows, r) -> rows.number(here.get(r.uuid)).json(r.extras).endRow());
        copy("import_nodes (ord, uuid, node_type, id, is_new, hash)", batch, batch, (rows, r) -> {
            Long id = here.get(r.uuid);
            rows.number(r.ord)
                    .uuid(r.uuid)
                    .text(r.nodeType())
                    .number(id != null ? id : freshIds.get(r.uuid))
                    .text(id == null ? "t" : "f")
                    .text(id == null ? r.hash() : null)
                    .endRow();
        });
        if (group != null) {
            long groupId = group.id();
            // the new processes join when they are inserted, after the links
            List<IntakeRow> members = batch.stream()
                    .filter(r -> here.containsKey(r.uuid) || !r.process())
                    .toList();
            copy("group_member (group_id, node_id)", batch, members, (rows, r) -> {
                Long id = here.get(r.uuid);
                rows.number(groupId)
                        .number(id != null ? id : freshIds.get(r.uuid))
                        .endRow();
            });
        } else if (!fresh.isEmpty()) {
            group = EntityImports.importGroup(c, groupLabel, userId);
        }
        added += fresh.size();
        existing += batch.size() - fresh.size();
    }

    private interface RowWriter {
        void write(CopyRows rows, IntakeRow row) throws SQLException;
    }

    /** One COPY of {@code rows} into {@code target}; a value PostgreSQL refuses names the batch's rows. */
    private void copy(String target, List<IntakeRow> batch, List<IntakeRow> batchRows, RowWriter writer)
            throws SQLException {
        if (batchRows.isEmpty()) {
            return;
        }
        CopyRows rows = new CopyRows(copies.copyIn("COPY " + target + " FROM STDIN"), copyBuffer);
        try {
            for (IntakeRow r : batchRows) {
                writer.write(rows, r);
            }
            rows.finish();
        } catch (PSQLException e) {
            rows.abandon();
            String state = e.getSQLState();
            UUID twice = twice(e);
            if (twice != null) {
                long ord = batch.stream()
                        .filter(r -> r.uuid.equals(twice))
                        .mapToLong(r -> r.ord)
                        .max()
                        .orElse(0);
                throw rowError(ord, "uuid " + twice + " is given twice");
            }
            if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                throw new InvalidArchiveException(
                        "the archive's nodes part, rows " + batch.getFirst().ord + " to "
                                + batch.getLast().ord + ": "
                                + (e.getServerErrorMessage() == null
                                        ? e.getMessage()
                                        : e.getServerErrorMessage().getMessage()),
                        e);
            }
            throw SqlErrors.translate(e, "importing the archive's nodes");
        } catch (RuntimeException e) {
            rows.abandon();
            throw e;
        }
    }

    /**
     * The uuid the key of import_nodes or node found twice (a second row of the archive with it, which the
     * look-ups, seeing only committed nodes, took for new), or null.
     */
    private static UUID twice(PSQLException e) {
        ServerErrorMessage m = e.getServerErrorMessage();
        if (m == null
                || !SqlErrors.UNIQUE_VIOLATION.equals(m.getSQLState())
                || !("import_nodes".equals(m.getTable()) || "node".equals(m.getTable()))
                || m.getDetail() == null) {
            return null;
        }
        Matcher key = DUPLICATE_UUID.matcher(m.getDetail());
        return key.find() ? UUID.fromString(key.group(1)) : null;
    }

    private static InvalidArchiveException rowError(long ord, String why) {
        return new InvalidArchiveException("the archive's nodes part, row " + ord + ": " + why);
    }
}
