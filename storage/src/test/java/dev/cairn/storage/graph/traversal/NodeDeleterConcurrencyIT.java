package dev.cairn.storage.graph.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SampleGraph;
import dev.cairn.storage.testing.TestDatabase;

/** A node linked while it is being deleted never leaves a link or a process without its input behind. */
class NodeDeleterConcurrencyIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** In one transaction on {@code c}: a new calculation that takes {@code input}; returns its id. */
    private static long newCalculationUsing(Connection c, long input) throws SQLException {
        long calc;
        try (PreparedStatement s = c.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime, user_id)"
                + " SELECT ?, ?, now(), now(), user_id FROM node WHERE id = ? RETURNING id")) {
            s.setObject(1, UUID.randomUUID());
            s.setString(2, GraphRows.CALC_FUNCTION);
            s.setLong(3, input);
            try (var r = s.executeQuery()) {
                r.next();
                calc = r.getLong(1);
            }
        }
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO link (input_id, output_id, type, label) VALUES (?, ?, 'input_calc', 'late')")) {
            s.setLong(1, input);
            s.setLong(2, calc);
            s.executeUpdate();
        }
        return calc;
    }

    /** Waits until some session of this database waits for a row lock. */
    private static void awaitLockWait(Connection observer) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Statement s = observer.createStatement();
                    var r = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
                r.next();
                if (r.getLong(1) > 0) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no session waited for a lock within 30 s");
    }

    @Test
    void aProcessLinkedBeforeTheLockIsDeletedWithTheNodesItUsed() throws Exception {
        try (Connection observer = database.connection();
                Connection writer = database.connection()) {
            GraphRows rows = new GraphRows(observer);
            SampleGraph g = new SampleGraph(rows);
            writer.setAutoCommit(false);
            // The writer holds its foreign-key lock on d2 while the deleter computes the closure.
            long late = newCalculationUsing(writer, g.d2);
            CompletableFuture<DeletionResult> deletion = CompletableFuture.supplyAsync(
                    () -> new NodeDeleter(database).delete(NodeIds.of(g.d1), TraversalRules.DELETE));
            awaitLockWait(observer);
            writer.commit();

            DeletionResult result = deletion.get(60, TimeUnit.SECONDS);
            assertEquals(10, result.nodes(), "the 9 nodes of the closure and the calculation linked meanwhile");
            assertFalse(rows.exists(late));
            assertEquals(0, rows.count("SELECT count(*) FROM link WHERE label = 'late'"));
        }
    }

    @Test
    void aLinkToANodeBeingDeletedWaitsAndThenFailsOnTheForeignKey() throws Exception {
        try (Connection observer = database.connection();
                Connection deleting = database.connection()) {
            GraphRows rows = new GraphRows(observer);
            SampleGraph g = new SampleGraph(rows);
            deleting.setAutoCommit(false);
            DeletionResult result = new NodeDeleter(database).delete(deleting, NodeIds.of(g.d1), TraversalRules.DELETE);
            assertEquals(9, result.nodes());

            CompletableFuture<Long> writing = CompletableFuture.supplyAsync(() -> {
                try (Connection writer = database.connection()) {
                    writer.setAutoCommit(false);
                    long calc = newCalculationUsing(writer, g.d2);
                    writer.commit();
                    return calc;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitLockWait(observer);
            deleting.commit();

            ExecutionException failed =
                    Assertions.assertThrows(ExecutionException.class, () -> writing.get(60, TimeUnit.SECONDS));
            SQLException cause = (SQLException) failed.getCause().getCause();
            assertEquals("23503", cause.getSQLState(), cause.getMessage());
            assertEquals(0, rows.count("SELECT count(*) FROM link WHERE label = 'late'"));
            assertTrue(rows.exists(g.dp));
            assertFalse(rows.exists(g.d2));
        }
    }
}
