package dev.cairn.storage;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveImport;
import dev.cairn.storage.backup.Backups;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.codes.CodeStore;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.graph.computers.AuthInfoStore;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.computers.RemoteWorkdirs;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.traversal.Neighbourhood;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.ObjectReferences;
import dev.cairn.storage.graph.users.ApiTokenStore;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.query.AttributeIndexes;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.views.GraphSizes;
import dev.cairn.storage.views.NodeViews;
import dev.cairn.storage.views.ProcessViews;

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
    private final ProcessViews processes;
    private final ComputerStore computers;
    private final CodeStore codes;
    private final AuthInfoStore authInfos;
    private final UserStore users;
    private final ApiTokenStore tokens;
    private final GroupStore groups;
    private final CommentStore comments;
    private final GraphStatistics statistics;
    private final NodeDeleter deleter;
    private final ObjectReferences objectReferences;
    private final Neighbourhood neighbourhood;
    private final GraphSizes sizes;
    private final AttributeIndexes attributeIndexes;
    private final RemoteWorkdirs remoteWorkdirs;

    /** The stores over {@code database}, with {@code graph} as the store of nodes and links (and its object store). */
    public Storage(Database database, GraphStore graph) {
        this.database = Objects.requireNonNull(database, "database");
        this.graph = Objects.requireNonNull(graph, "graph");
        this.nodes = new NodeViews(database);
        this.processes = new ProcessViews(database);
        this.computers = new ComputerStore(database);
        this.codes = new CodeStore(database);
        this.authInfos = new AuthInfoStore(database);
        this.users = new UserStore(database);
        this.tokens = new ApiTokenStore(database);
        this.groups = new GroupStore(database);
        this.comments = new CommentStore(database);
        this.statistics = new GraphStatistics(database);
        this.deleter = new NodeDeleter(database);
        this.objectReferences = new ObjectReferences(database);
        this.neighbourhood = new Neighbourhood(database);
        this.sizes = new GraphSizes(database);
        this.attributeIndexes = new AttributeIndexes(database);
        this.remoteWorkdirs = new RemoteWorkdirs(database);
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

    /** The processes as a server shows them: lists, one in full, call trees, reports. */
    public ProcessViews processes() {
        return processes;
    }

    /** An export of this installation's graph, which archives name as made by {@code producer}. */
    public ArchiveExport archiveExport(String producer) {
        return new ArchiveExport(database, graph.objectStore(), producer);
    }

    /** An import into this installation's graph, whose new nodes belong to the user {@code userId}. */
    public ArchiveImport archiveImport(long userId) {
        return new ArchiveImport(database, graph.objectStore(), userId);
    }

    /** A query of the query builder, ready to run on this installation's database. */
    public GraphQuery query(QuerySpec spec) {
        return GraphQuery.on(database, spec);
    }

    /** The computers: created, found by label or uuid, configured, deleted while unused. */
    public ComputerStore computers() {
        return computers;
    }

    /** The code nodes: found by label and computer, paged, deleted while unused. */
    public CodeStore codes() {
        return codes;
    }

    /** Each user's settings of each computer (authinfo). */
    public AuthInfoStore authInfos() {
        return authInfos;
    }

    /** The users: created, found, updated, and the installation's default user. */
    public UserStore users() {
        return users;
    }

    /** The bearer tokens of the server's API. */
    public ApiTokenStore tokens() {
        return tokens;
    }

    /** The groups of nodes and their members. */
    public GroupStore groups() {
        return groups;
    }

    /** The comments on nodes. */
    public CommentStore comments() {
        return comments;
    }

    /** Counts of nodes by type, state and day, kept as nodes are stored. */
    public GraphStatistics statistics() {
        return statistics;
    }

    /** The object keys the nodes' files refer to: what maintenance keeps. */
    public ObjectReferences objectReferences() {
        return objectReferences;
    }

    /** The graph around a node, with large fan-outs folded, for drawing it. */
    public Neighbourhood neighbourhood() {
        return neighbourhood;
    }

    /** How big the graph is. */
    public GraphSizes sizes() {
        return sizes;
    }

    /** The working folders calculation jobs left on their computers, and the record of their removal. */
    public RemoteWorkdirs remoteWorkdirs() {
        return remoteWorkdirs;
    }

    /** The indexes an operator declared on hot attributes of the nodes. */
    public AttributeIndexes attributeIndexes() {
        return attributeIndexes;
    }

    /**
     * Backs up the database and the object store into a folder of backups (see {@link Backups}); keeps the
     * newest {@code keep} (0: all); {@code progress} hears each step.
     */
    public Backups.Result backup(Path destination, int keep, Consumer<String> progress) {
        return Backups.create(destination, keep, database.dataSource(), graph.objectStore(), progress);
    }

    /** Deletions of nodes with what the deletion rules take along. */
    public NodeDeleter deleter() {
        return deleter;
    }
}
