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

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Imports an archive, of Cairn's format or AiiDA's, all or nothing. The nodes are checked and written
 * as they stream in ({@link NodeIntake}); the other parts are staged in the database and checked there
 * by the graph's rules; rows are added where the installation lacks them (identity is the uuid, so a
 * second import adds nothing); the objects go straight into packs. The database transaction commits after the packs' index: if it fails then, the objects are
 * taken back. Imports run one at a time (an advisory lock), readers of the graph are never blocked.
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

    public ImportResult importFrom(ArchiveReader reader, ImportOptions options, ArchiveProgress progress) {
        ArchiveHeader header = reader.header();
        Map<ArchivePart, Long> added = new EnumMap<>(ArchivePart.class);
        try (Connection c = database.connection();
                ObjectIntake objects = new ObjectIntake(container)) {
            c.setAutoCommit(false);
            boolean indexed = false;
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_xact_lock(hashtext('cairn.archive.import'))");
                    s.execute("SET LOCAL TimeZone = 'UTC'");
                }
                Staging.create(c);
                ImportSteps steps = new ImportSteps(progress);
                RowWrites rows = new RowWrites(c, options, added, steps, groupLabel(options), userId);
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
                        rows.writeOnce();
                        objects.accept(key, content);
                        if (++seen % 1000 == 0) {
                            progress.update(ArchivePart.OBJECTS, seen, header.count(ArchivePart.OBJECTS));
                        }
                    }
                });
                rows.writeOnce();
                steps.done("objects");
                progress.update(
                        ArchivePart.OBJECTS, header.count(ArchivePart.OBJECTS), header.count(ArchivePart.OBJECTS));
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
        private final ImportOptions options;
        private final Map<ArchivePart, Long> added;
        private final ImportSteps steps;
        private final String groupLabel;
        private final long userId;
        private NodeIntake nodes;
        private boolean done;

        RowWrites(
                Connection c,
                ImportOptions options,
                Map<ArchivePart, Long> added,
                ImportSteps steps,
                String groupLabel,
                long userId) {
            this.c = c;
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
            nodes = new NodeIntake(c, groupLabel, userId);
            nodes.read(ndjson, total, progress);
        }

        void writeOnce() {
            if (done) {
                return;
            }
            done = true;
            try {
                RowChecks.run(c, AFTER_NODES);
                steps.done("row checks");
                ImportHashes.compute(c);
                steps.done("process hashes");
                added.put(ArchivePart.NODES, nodes.added());
                NodeImports.processes(c, nodes.group());
                steps.done("processes inserted");
                NodeImports.mergeExtras(c, options);
                steps.done("extras");
                added.put(ArchivePart.LINKS, NodeImports.links(c, steps));
                steps.done("links inserted");
                added.put(ArchivePart.GROUP_MEMBERS, EntityImports.groupMembers(c));
                steps.done("group members");
                added.put(ArchivePart.COMMENTS, EntityImports.comments(c, options.comments()));
                added.put(ArchivePart.LOGS, EntityImports.logs(c));
                steps.done("comments, logs");
            } catch (SQLException e) {
                throw SqlErrors.translate(e, "importing the archive's rows");
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
}
