package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.archive.ArchiveRoundTripIT.Installation;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.NodeNotFoundException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An import whose role may set {@code session_replication_role} skips the per-row foreign-key checks of
 * its bulk writes and keeps what they guarded: the graph's triggers still fire (the tallies count every
 * node), a node here already that the archive names cannot be deleted until the import commits, and one
 * deleted before the import locks it fails the import, naming it, with nothing imported. A role that may
 * not imports the same with the checks. {@code .ci/services} grants the first to the test role and makes
 * the second, {@code <role>_plain}, for the test role to take on.
 */
class ArchiveForeignKeyChecksIT {

    private static final String DELETE_TIMED_OUT = "55P03";

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase lockedDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase deletedDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase plainDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static ArchiveGraph graph;
    static Path whole;
    static Path justX;

    @BeforeAll
    static void export() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        graph = new ArchiveGraph(source.graph(), source.database(), tmp, "cluster");
        whole = source.exportFile(ExportRequest.ofEverything(), tmp.resolve("whole.cairn"));
        justX = source.exportFile(
                ExportRequest.of(new long[] {graph.x.id()}, new long[0], new long[0]), tmp.resolve("x.cairn"));
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
    }

    @Test
    void aRoleThatMaySkipsTheChecksAndANamedNodeStaysLockedUntilTheCommit() throws Exception {
        Installation target = Installation.open(lockedDb, tmp.resolve("locked-objects"), "target@example.com");
        try {
            target.importFile(justX, ImportOptions.defaults());
            Steps steps = new Steps("named nodes locked", () -> tryToDeleteX(lockedDb, 200));

            ImportResult result = target.importFile(whole, ImportOptions.defaults(), steps);

            assertTrue(
                    steps.seen.contains("foreign-key checks skipped"),
                    "the test role may set session_replication_role (.ci/services grants it): " + steps.seen);
            assertEquals(DELETE_TIMED_OUT, steps.outcome, "the import holds x until it commits");
            assertWhole(target, result);
        } finally {
            target.close();
        }
    }

    @Test
    void aNamedNodeDeletedBeforeTheImportLocksItFailsTheImportNamingIt() throws Exception {
        Installation target = Installation.open(deletedDb, tmp.resolve("deleted-objects"), "target@example.com");
        try {
            target.importFile(justX, ImportOptions.defaults());
            Steps steps = new Steps("links inserted", () -> tryToDeleteX(deletedDb, 5_000));

            NodeNotFoundException refused = assertThrows(
                    NodeNotFoundException.class, () -> target.importFile(whole, ImportOptions.defaults(), steps));

            assertTrue(steps.seen.contains("foreign-key checks skipped"), steps.seen.toString());
            assertNull(steps.outcome, "nothing held x before the import locked the nodes it names");
            assertTrue(refused.getMessage().contains(graph.x.uuid().toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains("deleted here while the import ran"), refused.getMessage());
            assertEquals(0, count(target, "SELECT count(*) FROM node"), "x is gone and nothing came");
            assertEquals(0, count(target, "SELECT count(*) FROM link"));
            assertEquals(1, count(target, "SELECT count(*) FROM node_group"), "only the first import's group");
        } finally {
            target.close();
        }
    }

    @Test
    void aRoleThatMayNotImportsTheSameWithTheChecksWhichHoldTheNamedNodes() throws Exception {
        String plain = plainDb.user() + "_plain";
        try (Database owner = Database.open(DatabaseConfig.of(plainDb.jdbcUrl()));
                Connection c = owner.connection();
                Statement s = c.createStatement()) {
            if (!exists(s, "SELECT 1 FROM pg_roles WHERE rolname = '" + plain + "'")) {
                // .ci/services makes it; a superuser test role (Testcontainers') can make it here
                s.execute("CREATE ROLE " + plain + " NOLOGIN");
                s.execute("GRANT " + plain + " TO current_user");
            }
            s.execute("GRANT USAGE ON SCHEMA public TO " + plain);
            s.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO " + plain);
            s.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO " + plain);
        }
        Database asPlain = Database.open(DatabaseConfig.of(plainDb.jdbcUrl() + "&options=-c%20role%3D" + plain));
        Container container = Container.init(tmp.resolve("plain-objects"), ContainerConfig.defaults());
        Installation target = new Installation(
                asPlain, container, new GraphStore(asPlain, container, GraphFixtures.user(asPlain, "p@example.com")));
        try {
            assertEquals(plain, ArchiveRoundTripIT.single(target, "SELECT current_user"));
            target.importFile(justX, ImportOptions.defaults());
            Steps steps = new Steps("links inserted", () -> tryToDeleteX(plainDb, 200));

            ImportResult result = target.importFile(whole, ImportOptions.defaults(), steps);

            assertTrue(steps.seen.contains("foreign-key checks kept"), steps.seen.toString());
            assertEquals(DELETE_TIMED_OUT, steps.outcome, "the foreign keys' checks hold x");
            assertWhole(target, result);
        } finally {
            target.close();
        }
    }

    private static boolean exists(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            return r.next();
        }
    }

    /** Everything arrived, x was found here, and the tallies, which triggers keep, count every node. */
    private static void assertWhole(Installation target, ImportResult result) throws SQLException {
        assertEquals(graph.nodes.size() - 1, result.added(ArchivePart.NODES));
        assertEquals(1, result.existing());
        assertEquals(count(source, "SELECT count(*) FROM link"), count(target, "SELECT count(*) FROM link"));
        assertEquals(
                graph.nodes.size(),
                count(
                        target,
                        "SELECT count(*) FROM group_member m JOIN node_group g ON g.id = m.group_id"
                                + " WHERE g.label = '" + result.group() + "'"),
                "the import group holds every node of the archive, x too");
        assertEquals(
                count(target, "SELECT count(*) FROM node"),
                count(
                        target,
                        "SELECT (SELECT coalesce(sum(nodes), 0) FROM node_tally)"
                                + " + (SELECT coalesce(sum(nodes), 0) FROM node_tally_change)"));
    }

    /** Deletes x from another connection, waiting at most {@code millis} for it; the SQL state if refused. */
    private static String tryToDeleteX(TestDatabase db, int millis) {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            s.execute("SET lock_timeout = " + millis);
            s.executeUpdate("DELETE FROM node WHERE uuid = '" + graph.x.uuid() + "'");
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    private static long count(Installation at, String sql) throws SQLException {
        return Long.parseLong(ArchiveRoundTripIT.single(at, sql));
    }

    /** The import's steps, in order; at {@code when}, runs {@code action} and keeps what it returns. */
    private static final class Steps implements ArchiveProgress {
        final List<String> seen = new CopyOnWriteArrayList<>();
        private final String when;
        private final Supplier<String> action;
        volatile String outcome;

        Steps(String when, Supplier<String> action) {
            this.when = when;
            this.action = action;
        }

        @Override
        public void update(ArchivePart part, long done, long total) {}

        @Override
        public void step(String step, long millis) {
            seen.add(step);
            if (step.equals(when)) {
                outcome = action.get();
            }
        }
    }
}
