package dev.cairn.storage.graph.traversal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;

import dev.cairn.storage.graph.traversal.internal.Closure;

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

    /** The rules the deletion follows. */
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

    /** The first {@code limit} nodes that would be deleted, by id. */
    public List<DeletionPreview.Listed> first(int limit) throws SQLException {
        List<DeletionPreview.Listed> listed = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT n.uuid, n.node_type, n.label FROM "
                + closure.nodeTable() + " c JOIN node n ON n.id = c.id ORDER BY c.id LIMIT ?")) {
            s.setInt(1, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    listed.add(new DeletionPreview.Listed(r.getObject(1, UUID.class), r.getString(2), r.getString(3)));
                }
            }
        }
        return listed;
    }

    /** Processes that would be deleted and have not ended (their nodes are not sealed), by id, at most {@code limit}. */
    public List<DeletionPreview.Unended> unendedProcesses(int limit) throws SQLException {
        List<DeletionPreview.Unended> unended = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement("SELECT n.uuid, n.attributes->>'process_state' FROM "
                + closure.nodeTable() + " c JOIN node n ON n.id = c.id WHERE n.node_type LIKE 'process.%'"
                + " AND coalesce(n.attributes->>'sealed', 'false') <> 'true' ORDER BY c.id LIMIT ?")) {
            s.setInt(1, limit);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    unended.add(new DeletionPreview.Unended(r.getObject(1, UUID.class), r.getString(2)));
                }
            }
        }
        return unended;
    }

    /** Rolls back and returns the connection. */
    @Override
    public void close() throws SQLException {
        try (connection) {
            connection.rollback();
        }
    }
}
