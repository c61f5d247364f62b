package dev.cairn.storage.graph.traversal.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import dev.cairn.storage.db.internal.Cursors;
import dev.cairn.storage.db.internal.TempTables;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * The nodes (and, when asked, the links) a traversal reached, held in temporary tables of the
 * traversal's transaction: the result is read by counting and streaming in the database,
 * never loaded whole into memory. Valid until the transaction ends or {@link #close()}.
 * <p>
 * Each node row carries the round that found it (0 for the seeds): a round expands only the
 * nodes of the previous one, so every node's links are read once.
 */
public final class Closure implements AutoCloseable {

    private final Connection connection;
    private final TraversalRules rules;
    private final String nodes;
    private final String links;
    private long size;

    private Closure(Connection connection, TraversalRules rules, String nodes, String links) {
        this.connection = connection;
        this.rules = rules;
        this.nodes = nodes;
        this.links = links;
    }

    /** Creates the tables; {@code recordLinks} adds the table of links followed. */
    static Closure create(Connection connection, TraversalRules rules, boolean recordLinks) throws SQLException {
        String nodes = TempTables.name("closure");
        String links = recordLinks ? nodes + "_links" : null;
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TEMP TABLE " + nodes + " (id bigint PRIMARY KEY, round int NOT NULL) ON COMMIT DROP");
            s.execute("CREATE INDEX ON " + nodes + " (round)");
            if (links != null) {
                s.execute("CREATE TEMP TABLE " + links + " (link_id bigint PRIMARY KEY) ON COMMIT DROP");
            }
        }
        return new Closure(connection, rules, nodes, links);
    }

    /** The rules that made this closure. */
    public TraversalRules rules() {
        return rules;
    }

    /** The number of nodes in the closure, seeds included. */
    public long size() {
        return size;
    }

    /** How many nodes of each {@code node_type}, by type name. */
    public Map<String, Long> countsByNodeType() throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT n.node_type, count(*) FROM " + nodes + " c JOIN node n ON n.id = c.id GROUP BY 1")) {
            while (r.next()) {
                counts.put(r.getString(1), r.getLong(2));
            }
        }
        return counts;
    }

    /** True when the traversal recorded the links it followed. */
    public boolean recordsLinks() {
        return links != null;
    }

    /** The number of distinct links followed. */
    public long linkCount() throws SQLException {
        requireLinks();
        return single("SELECT count(*) FROM " + links);
    }

    /**
     * The node ids in ascending order, fetched in batches through a cursor. Close the stream
     * (try-with-resources) to release the cursor before the transaction goes on.
     */
    public LongStream nodeIds() throws SQLException {
        PreparedStatement statement = connection.prepareStatement("SELECT id FROM " + nodes + " ORDER BY id");
        return Cursors.longs(statement);
    }

    /** Calls {@code action} with each node id in ascending order. */
    /** The links followed, by ascending link id, through a cursor; close the stream. */
    public Stream<TraversedLink> links() throws SQLException {
        requireLinks();
        PreparedStatement statement =
                connection.prepareStatement("SELECT l.id, l.input_id, l.output_id, l.type, l.label FROM " + links
                        + " t JOIN link l ON l.id = t.link_id ORDER BY l.id");
        return Cursors.rows(
                statement,
                r -> new TraversedLink(
                        r.getLong(1),
                        r.getLong(2),
                        r.getLong(3),
                        LinkType.fromDbValue(r.getString(4)),
                        r.getString(5)));
    }

    /** Calls {@code action} with each followed link. */
    public void forEachLink(Consumer<TraversedLink> action) throws SQLException {
        try (Stream<TraversedLink> all = links()) {
            all.forEach(action);
        }
    }

    /** Drops the tables now rather than at the end of the transaction. */
    @Override
    public void close() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + nodes + (links != null ? ", " + links : ""));
        }
    }

    // ---- for the traversal and the deleter ----

    public Connection connection() {
        return connection;
    }

    /** The temporary table of nodes, to join with: columns {@code id}, {@code round}. */
    public String nodeTable() {
        return nodes;
    }

    /** Records that a statement added {@code count} nodes. */
    void added(long count) {
        size += count;
    }

    /** The table of followed links, or {@code null}. */
    String linkTable() {
        return links;
    }

    long single(String sql) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private void requireLinks() {
        if (links == null) {
            throw new IllegalStateException("this traversal did not record its links: build it with recordingLinks()");
        }
    }
}
