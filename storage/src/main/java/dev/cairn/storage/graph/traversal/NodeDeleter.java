package dev.cairn.storage.graph.traversal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.graph.traversal.internal.Closure;
import dev.cairn.storage.graph.traversal.internal.GraphTraversal;

/**
 * Deletes nodes with everything the {@link TraversalRules#DELETE} rules drag along (the
 * processes that used them, their outputs, their callers, transitively), so that no node left
 * behind misses part of its provenance.
 * <p>
 * One transaction, set-based: the closure is computed into a temporary table, then each table
 * is cleared with {@code DELETE ... USING} that table, in chunks of ids so that no single
 * statement's work (and its queue of foreign-key trigger events) grows with the deletion.
 * No statement carries one parameter per node.
 * <p>
 * Files are not touched: deleting a node only drops its references into the object store.
 * {@link ObjectReferences} lists the keys still referenced, for maintenance to remove the rest.
 *
 * <h2>Concurrent writers</h2>
 * Each node of the closure is locked {@code FOR UPDATE} before its links are read. That lock
 * conflicts with the {@code FOR KEY SHARE} lock a foreign-key check takes, so from then on no
 * transaction can commit a link, group membership, comment or log that references the node:
 * it waits, and fails on the foreign key once the node is gone. A writer that got its key
 * lock first makes the deleter wait until it commits, and the statement that then reads the
 * node's links (READ COMMITTED: a fresh snapshot per statement) sees what it wrote. So a
 * process that started using a doomed node during the deletion is deleted too, rather than
 * left without its input, and no link ever points at a deleted node. Row locks rather than a
 * table lock keep writers that touch other nodes running. Two deletions with overlapping
 * closures can deadlock; PostgreSQL then aborts one of them, which changes nothing.
 */
public final class NodeDeleter {

    /** Nodes per chunk: bounds each statement's trigger queue at a few MiB. */
    public static final int DEFAULT_CHUNK = 20_000;

    /**
     * What a deletion clears, in order, each by one {@code DELETE ... USING} per chunk. The
     * rows that reference nodes go first so that each count is what went with the nodes; the
     * node delete then finds nothing left for its cascades.
     */
    private enum Removal {
        GROUP_MEMBERSHIPS("group_member t", "t.node_id"),
        COMMENTS("comment t", "t.node_id"),
        LOGS("log t", "t.node_id"),
        LINKS_OUT("link t", "t.input_id"),
        LINKS_IN("link t", "t.output_id"),
        NODES("node t", "t.id");

        private final String table;
        private final String nodeColumn;

        Removal(String table, String nodeColumn) {
            this.table = table;
            this.nodeColumn = nodeColumn;
        }

        String sql(String closureTable) {
            return "DELETE FROM " + table + " USING " + closureTable + " c WHERE " + nodeColumn
                    + " = c.id AND c.id > ? AND c.id <= ?";
        }
    }

    private final Database database;
    private final int chunk;

    /** Deletes nodes of this database, {@value #DEFAULT_CHUNK} at a time. */
    public NodeDeleter(Database database) {
        this(database, DEFAULT_CHUNK);
    }

    private NodeDeleter(Database database, int chunk) {
        this.database = Objects.requireNonNull(database, "database");
        if (chunk < 1) {
            throw new InvalidInputException("deletion chunk size must be at least 1, was " + chunk);
        }
        this.chunk = chunk;
    }

    /** The same deleter with {@code nodes} nodes per chunk. */
    public NodeDeleter withChunkSize(int nodes) {
        return new NodeDeleter(database, nodes);
    }

    /**
     * What {@link #delete} would remove, without removing it. Close the plan.
     *
     * @param rules {@link TraversalRules#DELETE}, possibly with its toggleable rules switched
     */
    public DeletionPlan plan(NodeIds seeds, TraversalRules rules) throws SQLException {
        requireDeleteRules(rules);
        Connection connection = database.connection();
        try {
            connection.setAutoCommit(false);
            return new DeletionPlan(connection, new GraphTraversal(rules).run(connection, seeds));
        } catch (SQLException | RuntimeException e) {
            try (connection) {
                connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * What {@link #delete} would remove now, read in one transaction that changes nothing: the count,
     * the counts per node type, the first {@code listed} nodes and the first {@code unended} processes
     * that have not ended.
     */
    public DeletionPreview preview(NodeIds seeds, TraversalRules rules, int listed, int unended) {
        try (DeletionPlan plan = plan(seeds, rules)) {
            return new DeletionPreview(
                    plan.nodeCount(), plan.countsByNodeType(), plan.first(listed), plan.unendedProcesses(unended));
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "reading what a deletion would take");
        }
    }

    /** Deletes the closure of {@code seeds} under {@code rules} in one transaction. */
    public DeletionResult delete(NodeIds seeds, TraversalRules rules) {
        requireDeleteRules(rules);
        try {
            return Transactions.run(database, connection -> delete(connection, seeds, rules));
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "deleting nodes");
        }
    }

    /** Deletes within the caller's transaction on {@code connection}; the caller commits. */
    public DeletionResult delete(Connection connection, NodeIds seeds, TraversalRules rules) throws SQLException {
        requireDeleteRules(rules);
        try (Closure closure = new GraphTraversal(rules).lockingNodes().run(connection, seeds)) {
            Map<String, Long> byType = closure.countsByNodeType();
            Map<Removal, Long> removed = removeInChunks(closure);
            return new DeletionResult(
                    removed.get(Removal.NODES),
                    byType,
                    removed.get(Removal.LINKS_OUT) + removed.get(Removal.LINKS_IN),
                    removed.get(Removal.GROUP_MEMBERSHIPS),
                    removed.get(Removal.COMMENTS),
                    removed.get(Removal.LOGS));
        }
    }

    private static void requireDeleteRules(TraversalRules rules) {
        if (!Objects.requireNonNull(rules, "rules").name().equals(TraversalRules.DELETE.name())) {
            throw new InvalidInputException("deleting nodes follows the DELETE traversal rules (with their toggleable"
                    + " rules " + String.join(", ", TraversalRules.DELETE.toggleable())
                    + " switched as wanted), not the "
                    + rules.name() + " rules");
        }
    }

    /** Runs every removal chunk by chunk of ascending node ids; returns the rows each removed. */
    private Map<Removal, Long> removeInChunks(Closure closure) throws SQLException {
        Connection connection = closure.connection();
        String table = closure.nodeTable();
        Map<Removal, Long> removed = new EnumMap<>(Removal.class);
        Map<Removal, PreparedStatement> statements = new EnumMap<>(Removal.class);
        try (PreparedStatement bound = connection.prepareStatement(
                "SELECT max(id) FROM (SELECT id FROM " + table + " WHERE id > ? ORDER BY id LIMIT ?) s")) {
            for (Removal removal : Removal.values()) {
                statements.put(removal, connection.prepareStatement(removal.sql(table)));
                removed.put(removal, 0L);
            }
            long after = Long.MIN_VALUE;
            while (true) {
                bound.setLong(1, after);
                bound.setInt(2, chunk);
                long upTo;
                try (ResultSet r = bound.executeQuery()) {
                    r.next();
                    upTo = r.getLong(1);
                    if (r.wasNull()) {
                        break;
                    }
                }
                for (Removal removal : Removal.values()) {
                    PreparedStatement delete = statements.get(removal);
                    delete.setLong(1, after);
                    delete.setLong(2, upTo);
                    removed.merge(removal, (long) delete.executeUpdate(), Long::sum);
                }
                after = upTo;
            }
        } finally {
            for (PreparedStatement statement : statements.values()) {
                statement.close();
            }
        }
        return removed;
    }
}
