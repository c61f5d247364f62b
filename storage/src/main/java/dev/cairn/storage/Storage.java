package dev.cairn.storage;

import java.util.Objects;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.graph.computers.AuthInfoStore;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.views.NodeViews;

/**
 * One installation's storage as a server uses it: the stores of the provenance graph, its queries and
 * its reads, on one database and one object store. Each store owns its transactions; none of them
 * hands out a connection, so a caller that holds this reaches the database only through them.
 * {@code dev.cairn.engine.Engine#storage()} gives the engine's.
 */
public final class Storage {

    private final Database database;
    private final GraphStore graph;
    private final NodeViews nodes;
    private final ComputerStore computers;
    private final AuthInfoStore authInfos;
    private final UserStore users;
    private final GroupStore groups;
    private final CommentStore comments;
    private final GraphStatistics statistics;
    private final NodeDeleter deleter;

    /** The stores over {@code database}, with {@code graph} as the store of nodes and links (and its object store). */
    public Storage(Database database, GraphStore graph) {
        this.database = Objects.requireNonNull(database, "database");
        this.graph = Objects.requireNonNull(graph, "graph");
        this.nodes = new NodeViews(database);
        this.computers = new ComputerStore(database);
        this.authInfos = new AuthInfoStore(database);
        this.users = new UserStore(database);
        this.groups = new GroupStore(database);
        this.comments = new CommentStore(database);
        this.statistics = new GraphStatistics(database);
        this.deleter = new NodeDeleter(database);
    }

    /** Nodes and links: storing, loading, changing what may change. */
    public GraphStore graph() {
        return graph;
    }

    /** The object store that holds the nodes' files; null when the installation has none. */
    public Container objectStore() {
        return graph.objectStore();
    }

    /** One node as a server shows it, and the look-ups that name nodes. */
    public NodeViews nodes() {
        return nodes;
    }

    /** A query of the query builder, ready to run on this installation's database. */
    public GraphQuery query(QuerySpec spec) {
        return GraphQuery.on(database, spec);
    }

    public ComputerStore computers() {
        return computers;
    }

    /** Each user's settings of each computer (authinfo). */
    public AuthInfoStore authInfos() {
        return authInfos;
    }

    public UserStore users() {
        return users;
    }

    public GroupStore groups() {
        return groups;
    }

    public CommentStore comments() {
        return comments;
    }

    /** Counts of nodes by type, state and day, kept as nodes are stored. */
    public GraphStatistics statistics() {
        return statistics;
    }

    /** Deletions of nodes with what the deletion rules take along. */
    public NodeDeleter deleter() {
        return deleter;
    }
}
