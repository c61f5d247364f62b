package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.db.Database;

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
 * Every node of the closure is locked {@code FOR UPDATE} before anything is deleted. That lock
 * conflicts with the {@code FOR KEY SHARE} lock that a foreign-key check takes, so from then on
 * no transaction can commit a link, group membership, comment or log that references a doomed
 * node: it waits, and fails on the foreign key once the nodes are gone. Writers that committed
 * before the lock was granted are seen by the next statement (READ COMMITTED takes a fresh
 * snapshot per statement), so after each locking pass the newly locked nodes are expanded
 * again, and anything new is locked in turn, until a pass adds nothing. A new process that
 * used a doomed node while the closure was being computed is thus deleted too, rather than
 * left without its input. Row locks rather than a table lock keep writers that touch other
 * nodes running. Two deletions with overlapping closures can deadlock; PostgreSQL aborts one.
 */
public final class NodeDeleter {

    /** Nodes per chunk: bounds each statement's trigger queue at a few MiB. */
    public static final int DEFAULT_CHUNK = 20_000;

    // Children first so each count is what went with the nodes; the node delete then finds
    // nothing left for its cascades.
    private static final List<String> CHILD_DELETES = List.of(
        "DELETE FROM group_member t USING %s c WHERE t.node_id = c.id AND c.id > ? AND c.id <= ?",
        "DELETE FROM comment t USING %s c WHERE t.node_id = c.id AND c.id > ? AND c.id <= ?",
        "DELETE FROM log t USING %s c WHERE t.node_id = c.id AND c.id > ? AND c.id <= ?",
        "DELETE FROM link t USING %s c WHERE t.input_id = c.id AND c.id > ? AND c.id <= ?",
        "DELETE FROM link t USING %s c WHERE t.output_id = c.id AND c.id > ? AND c.id <= ?");
    private static final String NODE_DELETE = "DELETE FROM node t USING %s c WHERE t.id = c.id AND c.id > ? AND c.id <= ?";

    private final Database database;
    private final int chunk;

    public NodeDeleter(Database database) {
        this(database, DEFAULT_CHUNK);
    }

    private NodeDeleter(Database database, int chunk) {
        this.database = Objects.requireNonNull(database, "database");
        if (chunk < 1)
            throw new InvalidInputException("deletion chunk size must be at least 1, was " + chunk);
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

    /** Deletes the closure of {@code seeds} under {@code rules} in one transaction. */
    public DeletionResult delete(NodeIds seeds, TraversalRules rules) throws SQLException {
        requireDeleteRules(rules);
        try (Connection connection = database.connection()) {
            connection.setAutoCommit(false);
            try {
                DeletionResult result = delete(connection, seeds, rules);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Deletes within the caller's transaction on {@code connection}; the caller commits. */
    DeletionResult delete(Connection connection, NodeIds seeds, TraversalRules rules) throws SQLException {
        requireDeleteRules(rules);
        GraphTraversal traversal = new GraphTraversal(rules);
        try (Closure closure = traversal.run(connection, seeds)) {
            lockToFixpoint(traversal, closure);
            Map<String, Long> byType = closure.countsByNodeType();
            long[] removed = removeInChunks(closure);
            return new DeletionResult(removed[5], byType, removed[3] + removed[4], removed[0], removed[1], removed[2]);
        }
    }

    private static void requireDeleteRules(TraversalRules rules) {
        if (!Objects.requireNonNull(rules, "rules").name().equals(TraversalRules.DELETE.name()))
            throw new InvalidInputException("deleting nodes follows the DELETE traversal rules (with their toggleable"
                + " rules " + String.join(", ", TraversalRules.DELETE.toggleable()) + " switched as wanted), not the "
                + rules.name() + " rules");
    }

    /** Locks the closure's nodes, re-expanding after each pass until a pass finds nothing new. */
    private static void lockToFixpoint(GraphTraversal traversal, Closure closure) throws SQLException {
        String lock = "SELECT count(*) FROM (SELECT n.id FROM node n JOIN " + closure.nodeTable()
            + " c ON c.id = n.id WHERE c.round BETWEEN ? AND ? ORDER BY n.id FOR UPDATE OF n) locked";
        int lockedThrough = -1;
        try (PreparedStatement statement = closure.connection().prepareStatement(lock)) {
            while (closure.lastRound() > lockedThrough) {
                int from = lockedThrough + 1;
                statement.setInt(1, from);
                statement.setInt(2, closure.lastRound());
                lockedThrough = closure.lastRound();
                statement.executeQuery().close();
                traversal.extend(closure, from);
            }
        }
    }

    /** Runs the deletes chunk by chunk; the counts are in the order of CHILD_DELETES, then nodes. */
    private long[] removeInChunks(Closure closure) throws SQLException {
        Connection connection = closure.connection();
        String table = closure.nodeTable();
        long[] removed = new long[CHILD_DELETES.size() + 1];
        PreparedStatement[] deletes = new PreparedStatement[removed.length];
        try (PreparedStatement bound = connection.prepareStatement(
            "SELECT max(id) FROM (SELECT id FROM " + table + " WHERE id > ? ORDER BY id LIMIT ?) s")) {
            for (int i = 0; i < CHILD_DELETES.size(); i++)
                deletes[i] = connection.prepareStatement(CHILD_DELETES.get(i).formatted(table));
            deletes[removed.length - 1] = connection.prepareStatement(NODE_DELETE.formatted(table));
            long after = Long.MIN_VALUE;
            while (true) {
                bound.setLong(1, after);
                bound.setInt(2, chunk);
                long upTo;
                try (ResultSet r = bound.executeQuery()) {
                    r.next();
                    upTo = r.getLong(1);
                    if (r.wasNull())
                        break;
                }
                for (int i = 0; i < deletes.length; i++) {
                    deletes[i].setLong(1, after);
                    deletes[i].setLong(2, upTo);
                    removed[i] += deletes[i].executeUpdate();
                }
                after = upTo;
            }
        } finally {
            for (PreparedStatement d : deletes)
                if (d != null)
                    d.close();
        }
        return removed;
    }
}
