package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.postgresql.PGConnection;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Imports an archive, of Cairn's format or AiiDA's, all or nothing. The nodes are checked and written
 * as they stream in ({@link NodeIntake}); the other parts are staged in the database and checked there
 * by the graph's rules; rows are added where the installation lacks them (identity is the uuid, so a
 * second import adds nothing); the objects go straight into packs. The objects follow the rows in every
 * archive, so the work on the rows after their last part runs on a thread of its own while the objects are
 * read: the database and the packs are written at once. The database transaction commits after the packs'
 * index: if it fails then, the objects are taken back. Imports run one at a time (an advisory lock), readers
 * of the graph are never blocked.
 */
public final class ArchiveImport {

    private static final DateTimeFormatter GROUP_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Database database;
    private final Container container;
    private final long userId;

    /** Imports as {@code userId}, who owns the import group. */
    public ArchiveImport(Database database, Container container, long userId) {
        this.database = database;
        this.container = container;
        this.userId = userId;
    }

    /**
     * Imports the archive {@code reader} reads, in one transaction, telling {@code told} how far it got; nodes already
     * here (by uuid) are merged as {@code options} say.
     *
     * @throws InvalidArchiveException if the archive is malformed or breaks a rule of the graph; then nothing is
     * imported
     */
    public ImportResult importFrom(ArchiveReader reader, ImportOptions options, ArchiveProgress told) {
        ArchiveHeader header = reader.header();
        ArchiveProgress progress = new OneAtATime(told);
        Map<ArchivePart, Long> added = new EnumMap<>(ArchivePart.class);
        try (Connection c = database.connection();
                Connection lookups = database.connection();
                ObjectIntake objects = new ObjectIntake(container)) {
            c.setAutoCommit(false);
            lookups.setAutoCommit(true);
            boolean indexed = false;
            ImportSteps steps = new ImportSteps(progress);
            RowWrites rows = new RowWrites(c, lookups, options, added, steps, groupLabel(options), userId);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_xact_lock(hashtext('cairn.archive.import'))");
                    s.execute("SET LOCAL TimeZone = 'UTC'");
                    // every statement here is a plain scan or join over the archive's rows: compiling them
                    // cost the link rules a large share of their time and won nothing
                    s.execute("SET LOCAL jit = off");
                    // room in memory for the joins and sorts over the archive's rows (its links, its map of
                    // uuids to ids); imports run one at a time, so the memory is bounded
                    s.execute("SET LOCAL work_mem = '64MB'");
                }
                Staging.create(c);
                reader.read(new ArchiveReader.Visitor() {
                    private long seen;

                    @Override
                    public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                        progress.update(part, 0, header.count(part));
                        try {
                            if (part == ArchivePart.NODES) {
                                rows.nodes(ndjson, header.count(part), progress);
                            } else {
                                Staging.copyIn(c, part, ndjson);
                            }
                        } catch (SQLException e) {
                            throw SqlErrors.translate(e, "staging the archive's " + part.key());
                        }
                        steps.done("staging " + part.key());
                        progress.update(part, header.count(part), header.count(part));
                    }

                    @Override
                    public void object(ObjectKey key, long size, InputStream content) throws IOException {
                        rows.startWriting();
                        rows.throwIfFailed();
                        objects.accept(key, content);
                        if (++seen % 1000 == 0) {
                            progress.update(ArchivePart.OBJECTS, seen, header.count(ArchivePart.OBJECTS));
                        }
                    }
                });
                steps.done("objects");
                progress.update(
                        ArchivePart.OBJECTS, header.count(ArchivePart.OBJECTS), header.count(ArchivePart.OBJECTS));
                rows.awaitWritten();
                steps.done("the rows' writes after the objects");
                String group = rows.groupLabel();
                added.put(ArchivePart.OBJECTS, objects.commit());
                indexed = true;
                steps.done("pack index");
                objects.requireFilesOfNewNodes(c);
                steps.done("files of new nodes");
                c.commit();
                steps.done("commit");
                return new ImportResult(header, added, rows.existing(), group);
            } catch (SQLException | IOException | RuntimeException e) {
                rows.abandon(e);
                rollBack(c, e);
                if (indexed) {
                    deleteAdded(objects, e);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "importing the archive");
        } catch (IOException e) {
            throw new ArchiveIoException("reading the archive failed: " + e.getMessage(), e);
        }
    }

    private static String groupLabel(ImportOptions options) {
        return options.groupLabel() != null
                ? options.groupLabel()
                : "import-" + GROUP_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    }

    private static void rollBack(Connection c, Exception failure) {
        try {
            c.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    private static void deleteAdded(ObjectIntake objects, Exception failure) {
        try {
            objects.deleteAdded();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * The checks and writes of the rows: the users, computers, authinfos and groups when the nodes begin
     * (the nodes name them), the nodes as they stream, the rest once, when the rows are all in and before
     * the objects.
     */
    private static final class RowWrites {
        private static final List<ArchivePart> BEFORE_NODES =
                List.of(ArchivePart.USERS, ArchivePart.COMPUTERS, ArchivePart.AUTHINFOS, ArchivePart.GROUPS);
        private static final List<ArchivePart> AFTER_NODES =
                List.of(ArchivePart.LINKS, ArchivePart.GROUP_MEMBERS, ArchivePart.COMMENTS, ArchivePart.LOGS);

        private final Connection c;
        private final Connection lookups;
        private final ImportOptions options;
        private final Map<ArchivePart, Long> added;
        private final ImportSteps steps;
        private final String groupLabel;
        private final long userId;
        private ForeignKeyChecks checks;
        private NodeIntake nodes;
        private CompletableFuture<Void> written;
        private volatile boolean abandoned;

        RowWrites(
                Connection c,
                Connection lookups,
                ImportOptions options,
                Map<ArchivePart, Long> added,
                ImportSteps steps,
                String groupLabel,
                long userId) {
            this.c = c;
            this.lookups = lookups;
            this.options = options;
            this.added = added;
            this.steps = steps;
            this.groupLabel = groupLabel;
            this.userId = userId;
        }

        void nodes(InputStream ndjson, long total, ArchiveProgress progress) throws SQLException, IOException {
            RowChecks.run(c, BEFORE_NODES);
            added.put(ArchivePart.USERS, EntityImports.users(c));
            added.put(ArchivePart.COMPUTERS, EntityImports.computers(c));
            added.put(ArchivePart.AUTHINFOS, EntityImports.authinfos(c));
            added.put(ArchivePart.GROUPS, EntityImports.groups(c));
            steps.done("users, computers, authinfos, groups");
            checks = ForeignKeyChecks.skipIfAllowed(c);
            steps.done(checks.skipped() ? "foreign-key checks skipped" : "foreign-key checks kept");
            nodes = new NodeIntake(c, lookups, groupLabel, userId);
            nodes.read(ndjson, total, progress);
        }

        /** Starts the writes after the rows on a thread of their own, once; the caller goes on with the objects. */
        void startWriting() {
            if (written != null) {
                return;
            }
            written = new CompletableFuture<>();
            Thread.ofPlatform().name("cairn-archive-rows").daemon().start(() -> {
                try {
                    writeOnce(steps.branch());
                    written.complete(null);
                } catch (Throwable t) {
                    written.completeExceptionally(t);
                }
            });
        }

        /** Throws the writes' failure if they failed already, so that reading stops at it. */
        void throwIfFailed() {
            if (written.isCompletedExceptionally()) {
                awaitWritten();
            }
        }

        /** Waits for the writes; an archive without objects has them written here. */
        void awaitWritten() {
            if (written == null) {
                writeOnce(steps);
                return;
            }
            try {
                written.join();
            } catch (CompletionException e) {
                switch (e.getCause()) {
                    case RuntimeException r -> throw r;
                    case Error r -> throw r;
                    default -> throw e;
                }
            }
        }

        /**
         * After a failure elsewhere: stops the writes (their running statement is cancelled, no step
         * follows) and waits until they let the connection go, so that it can roll back.
         */
        void abandon(Exception failure) {
            if (written == null || written.isDone()) {
                return;
            }
            abandoned = true;
            try {
                c.unwrap(PGConnection.class).cancelQuery();
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
            written.exceptionally(t -> null).join();
        }

        /**
         * The writes after the rows: run once, by the thread {@link #startWriting} starts or by {@link
         * #awaitWritten}.
         */
        private void writeOnce(ImportSteps steps) {
            try {
                RowChecks.run(c, AFTER_NODES);
                step(steps, "row checks");
                ImportHashes.compute(c);
                step(steps, "process hashes");
                added.put(ArchivePart.NODES, nodes.added());
                NodeImports.processes(c, nodes.group());
                step(steps, "processes inserted");
                NodeImports.mergeExtras(c, options);
                step(steps, "extras");
                added.put(ArchivePart.LINKS, NodeImports.links(c, steps));
                step(steps, "links inserted");
                checks.resume(NodeImports.namedHere(nodes.group() != null));
                step(steps, "named nodes locked");
                added.put(ArchivePart.GROUP_MEMBERS, EntityImports.groupMembers(c));
                step(steps, "group members");
                added.put(ArchivePart.COMMENTS, EntityImports.comments(c, options.comments()));
                added.put(ArchivePart.LOGS, EntityImports.logs(c));
                step(steps, "comments, logs");
            } catch (SQLException e) {
                throw SqlErrors.translate(e, "importing the archive's rows");
            }
        }

        private void step(ImportSteps steps, String done) {
            steps.done(done);
            if (abandoned) {
                throw new IllegalStateException("the import was abandoned after the step " + done);
            }
        }

        long existing() {
            return nodes.existing();
        }

        /** The import group's label, or null when the archive brought no new node. */
        String groupLabel() {
            return nodes.group() == null ? null : nodes.group().label();
        }
    }

    /**
     * The progress of an import is told from two threads (the objects' and the rows' writes), one call at a
     * time.
     */
    private record OneAtATime(ArchiveProgress told) implements ArchiveProgress {
        @Override
        public synchronized void update(ArchivePart part, long done, long total) {
            told.update(part, done, total);
        }

        @Override
        public synchronized void step(String step, long millis) {
            told.step(step, millis);
        }
    }
}
