package dev.cairn.storage.graph.traversal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * A dry run of a deletion: the nodes that {@link NodeDeleter#delete} would remove now, held
 * in a transaction that {@link #close()} rolls back, so nothing changes. Keep it short-lived:
 * the answer is for this moment and the open transaction holds a connection.
 */
public final class DeletionPlan implements AutoCloseable {

    private final Connection connection;
    private final Closure closure;

    DeletionPlan(Connection connection, Closure closure) {
        this.connection = connection;
        this.closure = closure;
    }

    public TraversalRules rules() {
        return closure.rules();
    }

    /** The number of nodes that would be deleted, seeds included. */
    public long nodeCount() {
        return closure.size();
    }

    /** The nodes that would be deleted, per {@code node_type}. */
    public Map<String, Long> countsByNodeType() throws SQLException {
        return closure.countsByNodeType();
    }

    /** Their ids, ascending, through a cursor: close the stream. */
    public LongStream nodeIds() throws SQLException {
        return closure.nodeIds();
    }

    /** Rolls back and returns the connection. */
    @Override
    public void close() throws SQLException {
        try (connection) {
            connection.rollback();
        }
    }
}
