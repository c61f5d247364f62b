package dev.cairn.storage.graph.traversal.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import org.postgresql.PGStatement;

import dev.cairn.storage.db.internal.TempTables;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.traversal.Direction;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * Walks the provenance graph from seed nodes, following the links a {@link TraversalRules} set
 * enables, to a fixpoint: the result is every node reachable by enabled rules, repeatedly.
 * <p>
 * The work happens in the database, set by set: the seeds go into a temporary table (one
 * array parameter or COPY, see {@link NodeIds}), and each round is one
 * {@code INSERT ... SELECT} that follows every enabled rule from the nodes the previous
 * round found. Memory in Java stays constant whatever the size of the closure; the number
 * of statements is the depth of the walk.
 */
public final class GraphTraversal {

    private final TraversalRules rules;
    private final boolean recordLinks;
    private final boolean lockNodes;

    /** A traversal by {@code rules} that records nodes only. */
    public GraphTraversal(TraversalRules rules) {
        this(rules, false, false);
    }

    private GraphTraversal(TraversalRules rules, boolean recordLinks, boolean lockNodes) {
        this.rules = Objects.requireNonNull(rules, "rules");
        this.recordLinks = recordLinks;
        this.lockNodes = lockNodes;
    }

    /** The same traversal, also recording each link it follows (what an export writes). */
    public GraphTraversal recordingLinks() {
        return new GraphTraversal(rules, true, lockNodes);
    }

    /**
     * The same traversal, locking each node {@code FOR UPDATE} before reading its links, so
     * that the closure is complete when it ends: no transaction can commit a new link to a
     * locked node, and the links committed before the lock was granted are visible to the
     * next statement, the one that expands the node (READ COMMITTED takes a fresh snapshot
     * per statement). For deletion.
     */
    public GraphTraversal lockingNodes() {
        return new GraphTraversal(rules, recordLinks, true);
    }

    public TraversalRules rules() {
        return rules;
    }

    /**
     * Computes the closure of {@code seeds} on {@code connection}, which must be in a
     * transaction: the result lives in temporary tables until the transaction ends.
     *
     * @throws NotFoundException if a seed is not a stored node (the message lists some)
     */
    public Closure run(Connection connection, NodeIds seeds) throws SQLException {
        TempTables.requireTransaction(connection, "a graph traversal");
        Closure closure = Closure.create(connection, rules, recordLinks);
        try {
            seed(closure, seeds);
            expand(closure);
            return closure;
        } catch (SQLException | RuntimeException e) {
            try {
                closure.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void seed(Closure closure, NodeIds seeds) throws SQLException {
        NodeIds.Selection selection = seeds.select(closure.connection());
        selection.requireNodes(closure.connection(), "seed nodes");
        try (PreparedStatement insert = closure.connection()
                .prepareStatement("INSERT INTO " + closure.nodeTable() + " (id, round) SELECT DISTINCT id, 0 FROM ("
                        + selection.sql() + ") s ON CONFLICT DO NOTHING")) {
            selection.bind(insert, 1);
            closure.added(insert.executeUpdate());
        }
        analyze(closure);
    }

    /**
     * Follows the enabled rules from the seeds, then from what that finds, until a round finds
     * nothing new. Each round expands only the nodes the previous round found.
     */
    private void expand(Closure closure) throws SQLException {
        String sql = expansionSql(closure);
        long analyzedAt = closure.size();
        try (PreparedStatement expand =
                        sql == null ? null : closure.connection().prepareStatement(sql);
                PreparedStatement lock = lockNodes ? closure.connection().prepareStatement(lockSql(closure)) : null) {
            if (expand != null) {
                // Plan every round for its own frontier: one round expands 3 nodes, the next 300,000.
                expand.unwrap(PGStatement.class).setPrepareThreshold(0);
            }
            for (int round = 0; ; round++) {
                if (lock != null) {
                    lock.setInt(1, round);
                    lock.executeQuery().close();
                }
                if (expand == null) {
                    return;
                }
                expand.setInt(1, round);
                expand.setInt(2, round + 1);
                long added = expand.executeUpdate();
                if (added == 0) {
                    return;
                }
                closure.added(added);
                // Temporary tables get no autovacuum: refresh their statistics as they grow.
                if (closure.size() > 2 * analyzedAt + 1000) {
                    analyze(closure);
                    analyzedAt = closure.size();
                }
            }
        }
    }

    /** Locks the nodes of one round, in id order so that two deleters meet in the same order. */
    private static String lockSql(Closure closure) {
        return "SELECT count(*) FROM (SELECT n.id FROM node n JOIN " + closure.nodeTable()
                + " c ON c.id = n.id WHERE c.round = ? ORDER BY n.id FOR UPDATE OF n) locked";
    }

    /**
     * One round as one statement with two parameters: the round to expand and the round to
     * give new nodes. {@code null} when no rule is enabled.
     */
    private String expansionSql(Closure closure) {
        List<String> steps = new ArrayList<>();
        String linkColumn = recordLinks ? "l.id AS link_id, " : "";
        Set<LinkType> forward = rules.followed(Direction.FORWARD);
        Set<LinkType> backward = rules.followed(Direction.BACKWARD);
        if (!forward.isEmpty()) {
            steps.add("SELECT " + linkColumn + "l.output_id AS node_id FROM frontier f JOIN link l ON l.input_id = f.id"
                    + " WHERE l.type IN " + typeList(forward));
        }
        if (!backward.isEmpty()) {
            steps.add("SELECT " + linkColumn + "l.input_id AS node_id FROM frontier f JOIN link l ON l.output_id = f.id"
                    + " WHERE l.type IN " + typeList(backward));
        }
        if (steps.isEmpty()) {
            return null;
        }
        String frontier = "frontier AS (SELECT id FROM " + closure.nodeTable() + " WHERE round = ?), ";
        String step = "step AS (" + String.join(" UNION ALL ", steps) + ")";
        String recorded = recordLinks
                ? ", recorded AS (INSERT INTO " + closure.linkTable()
                        + " (link_id) SELECT link_id FROM step ON CONFLICT DO NOTHING)"
                : "";
        return "WITH " + frontier + step + recorded + " INSERT INTO " + closure.nodeTable()
                + " (id, round) SELECT DISTINCT node_id, ? FROM step ON CONFLICT (id) DO NOTHING";
    }

    /** The link types as SQL literals; they come from the enum, never from a caller. */
    private static String typeList(Set<LinkType> types) {
        return types.stream().map(t -> "'" + t.dbValue() + "'").collect(Collectors.joining(", ", "(", ")"));
    }

    private static void analyze(Closure closure) throws SQLException {
        try (Statement s = closure.connection().createStatement()) {
            s.execute("ANALYZE " + closure.nodeTable());
        }
    }
}
