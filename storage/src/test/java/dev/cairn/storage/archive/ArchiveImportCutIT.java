package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.archive.ArchiveRoundTripIT.Installation;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An import whose database session ends in the middle (the primary failing over, the server
 * restarting) fails as the database being away, leaves nothing of the archive behind — no node, link,
 * group or indexed object — and the same archive imports whole once the database answers again. The
 * session is ended where the most is written and not yet committed: a trigger holds the import as it
 * inserts the links, after its nodes, while the test holds an advisory lock, and the test then ends
 * that session with {@code pg_terminate_backend}.
 */
class ArchiveImportCutIT {

    private static final long LOCK = 0x696d706fL;

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase targetDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static Installation target;

    @BeforeAll
    static void open() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        target = Installation.open(targetDb, tmp.resolve("target-objects"), "target@example.com");
        new ArchiveGraph(source.graph(), source.database(), tmp, "cut");
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void anImportCutOffFromItsDatabaseLeavesNothingAndImportsWholeAfterwards() throws Exception {
        Path archive = source.exportFile(ExportRequest.ofEverything(), tmp.resolve("all.cairn"));
        long nodes = GraphFixtures.count(target.database(), "node");
        long links = GraphFixtures.count(target.database(), "link");
        long groups = GraphFixtures.count(target.database(), "node_group");
        long objects = objects();

        try (Connection holder = targetDb.connect()) {
            holdLinkInserts(holder);
            CompletableFuture<ImportResult> cut = new CompletableFuture<>();
            Thread.ofPlatform().name("cut-import").start(() -> {
                try {
                    cut.complete(importFile(archive));
                } catch (Throwable t) {
                    cut.completeExceptionally(t);
                }
            });
            int pid = awaitHeld(holder, cut);
            terminate(holder, pid);
            release(holder);

            ExecutionException failed = assertThrows(ExecutionException.class, () -> cut.get(60, TimeUnit.SECONDS));
            Throwable e = failed.getCause();
            assertInstanceOf(UnavailableException.class, e, () -> "the database being away, not: " + e);
            assertTrue(SqlErrors.causedByConnectionFailure(e), () -> "a lost connection among the causes: " + e);
            try (Statement s = holder.createStatement()) {
                s.execute("DROP TRIGGER test_hold_link_insert ON link");
            }
        }
        assertEquals(nodes, GraphFixtures.count(target.database(), "node"), "no node of the cut import");
        assertEquals(links, GraphFixtures.count(target.database(), "link"), "no link of the cut import");
        assertEquals(groups, GraphFixtures.count(target.database(), "node_group"), "no group of the cut import");
        assertEquals(objects, objects(), "no object of the cut import indexed");

        ImportResult whole = importFile(archive);
        assertEquals(
                GraphFixtures.count(source.database(), "node"),
                GraphFixtures.count(target.database(), "node") - nodes,
                "every node, once: " + whole);
        assertEquals(
                GraphFixtures.count(source.database(), "link"),
                GraphFixtures.count(target.database(), "link") - links,
                "every link, once");
        AtomicLong sourceObjects = new AtomicLong();
        source.container().forEachKey(k -> sourceObjects.incrementAndGet());
        assertEquals(sourceObjects.get(), objects() - objects, "every object, once");
    }

    private static ImportResult importFile(Path archive) {
        try {
            return target.importFile(archive, ImportOptions.defaults());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A statement trigger on {@code link} that waits for the lock this session holds. */
    private static void holdLinkInserts(Connection holder) throws SQLException {
        try (Statement s = holder.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_hold_link_insert() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN PERFORM pg_advisory_xact_lock_shared(" + LOCK + "); RETURN NULL; END $$");
            s.execute("CREATE TRIGGER test_hold_link_insert BEFORE INSERT ON link"
                    + " FOR EACH STATEMENT EXECUTE FUNCTION test_hold_link_insert()");
            // as the graph's own triggers are: the import writes its rows in the replica role
            s.execute("ALTER TABLE link ENABLE ALWAYS TRIGGER test_hold_link_insert");
            s.execute("SELECT pg_advisory_lock(" + LOCK + ")");
        }
    }

    /** The pid of the import's session once it waits at the trigger; fails if the import ends first. */
    private static int awaitHeld(Connection holder, CompletableFuture<?> importing) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (PreparedStatement s = holder.prepareStatement("SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
                + " AND NOT granted AND objid = ? AND database = (SELECT oid FROM pg_database"
                + " WHERE datname = current_database())")) {
            s.setLong(1, LOCK);
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        return rs.getInt(1);
                    }
                }
                if (importing.isDone()) {
                    throw new AssertionError("the import ended before it inserted its links: " + importing);
                }
                try {
                    importing.get(50, TimeUnit.MILLISECONDS); // a pause that ends early if the import does
                } catch (TimeoutException | ExecutionException stillGoingOrFailed) {
                    // looked at above, on the next turn
                }
            }
        }
        throw new AssertionError("the import did not reach its links within 60 s");
    }

    private static void terminate(Connection holder, int pid) throws SQLException {
        try (PreparedStatement s = holder.prepareStatement("SELECT pg_terminate_backend(?)")) {
            s.setInt(1, pid);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                assertTrue(rs.getBoolean(1), "session " + pid + " could not be ended");
            }
        }
    }

    private static void release(Connection holder) throws SQLException {
        try (Statement s = holder.createStatement()) {
            s.execute("SELECT pg_advisory_unlock_all()");
        }
    }

    private static long objects() throws Exception {
        AtomicLong n = new AtomicLong();
        target.container().forEachKey(k -> n.incrementAndGet());
        return n.get();
    }
}
