package dev.cairn.storage.graph;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Stores, loads and updates nodes of the provenance graph.
 * <p>
 * Storing a node writes its files to the object store, then the node and its incoming
 * links in one transaction; a batch does the same for many nodes in one transaction by
 * COPY. A failure leaves no node and no link behind; file contents already written are
 * unreferenced objects, which a full maintenance deletes in two phases (Container#sweep): it
 * marks them, and a later run deletes them unless a node refers to them or stored them again.
 */
public final class GraphStore {

    private static final String SELECT_BY_ID = "SELECT " + NodeRows.COLUMNS + " FROM node n WHERE n.id = ?";
    private static final String SELECT_BY_UUID = "SELECT " + NodeRows.COLUMNS + " FROM node n WHERE n.uuid = ?";

    private final Database database;
    private final Container container;
    private final long userId;
    private final NodeHashing hashing;
    private final NodeUpdates updates;

    /**
     * @param container where node files go; may be null when no node has files
     * @param userId    the user new nodes belong to
     */
    public GraphStore(Database database, Container container, long userId) {
        this(database, container, userId, new NodeHashing(database), new NodeUpdates(database));
    }

    private GraphStore(Database database, Container container, long userId, NodeHashing hashing, NodeUpdates updates) {
        this.database = Objects.requireNonNull(database, "database");
        this.container = container;
        this.userId = userId;
        this.hashing = hashing;
        this.updates = updates;
    }

    /**
     * This store acting for another user: the nodes it stores belong to {@code userId}.
     * Cheap; it shares the database, the object store and the caches.
     */
    public GraphStore forUser(long userId) {
        return userId == this.userId ? this : new GraphStore(database, container, userId, hashing, updates);
    }

    /** The user the nodes this store stores belong to. */
    public long userId() {
        return userId;
    }

    /** Stores one node with its incoming links, whose sources must be stored. Returns the node. */
    public <T extends Node> T store(T node) {
        checkStorable(node);
        for (PendingLink link : node.pendingIncoming()) {
            if (!link.source().isStored()) {
                throw new InvalidInputException("cannot store " + node.describe() + ": the source of its " + link.type()
                        + " link '" + link.label() + "', " + link.source().describe()
                        + ", is not stored; store it first or store both with storeAll");
            }
        }
        writeFiles(List.of(node));
        String hash = hashing.hash(node, Map.of());
        try (Connection c = database.connection()) {
            node.markStored(NodeInserter.insertOne(c, node, userId, hash));
            return node;
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "storing " + node.describe());
        }
    }

    /**
     * Stores new nodes and the links among them and to stored nodes, all in one
     * transaction: either every node is stored or none is.
     */
    public void storeAll(Collection<? extends Node> nodes) {
        if (nodes.isEmpty()) {
            return;
        }
        // Prepared before a connection is taken: reading the batch's computers takes one of its own.
        List<Node> ordered = prepareBatch(nodes);
        Map<Node, Node.StoredState> states;
        try {
            states = Transactions.run(database, c -> inTransaction(c).insertPrepared(ordered));
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "storing a batch of " + nodes.size() + " nodes");
        }
        states.forEach(Node::markStored);
    }

    /**
     * The hash {@code node} will be stored with (the same as {@link Node#hash()} once it is),
     * computed now: for a process, from its inputs' hashes, computing those of unstored
     * inputs too. Caching looks a calculation up by it before running it.
     */
    public String hashOf(Node node) {
        Map<Node, String> batch = new IdentityHashMap<>();
        return hashWithSources(node, batch);
    }

    private String hashWithSources(Node node, Map<Node, String> batch) {
        if (node.isStored()) {
            return node.hash();
        }
        String known = batch.get(node);
        if (known != null) {
            return known;
        }
        for (PendingLink link : node.pendingIncoming()) {
            if (link.type() == LinkType.INPUT_CALC || link.type() == LinkType.INPUT_WORK) {
                hashWithSources(link.source(), batch);
            }
        }
        String hash = hashing.hash(node, batch);
        batch.put(node, hash);
        return hash;
    }

    /** Graph work inside {@code connection}'s transaction, which the caller commits or rolls back. */
    public GraphTransaction inTransaction(Connection connection) {
        return new GraphTransaction(connection, this);
    }

    /** Checks a batch, orders it sources first and writes its files: all that comes before its rows. */
    List<Node> prepareBatch(Collection<? extends Node> nodes) {
        List<Node> ordered = StoreOrder.of(nodes);
        var inBatch = Collections.newSetFromMap(new IdentityHashMap<Node, Boolean>());
        inBatch.addAll(ordered);
        for (Node n : ordered) {
            checkStorable(n);
            for (PendingLink link : n.pendingIncoming()) {
                if (!link.source().isStored() && !inBatch.contains(link.source())) {
                    throw new InvalidInputException("cannot store " + n.describe() + ": the source of its "
                            + link.type()
                            + " link '" + link.label() + "', " + link.source().describe()
                            + ", is neither stored nor in the batch");
                }
            }
        }
        writeFiles(ordered);
        hashing.prefetchComputers(ordered);
        return ordered;
    }

    NodeHashing hashing() {
        return hashing;
    }

    private void checkStorable(Node node) {
        if (node.isStored()) {
            throw new ModificationNotAllowedException(node.describe() + " is stored already");
        }
        if (!NodeTypes.isKnown(node.nodeType())) {
            throw NodeTypes.unknown(node.nodeType(), node.describe());
        }
        if (!node.files().isEmpty() && container == null) {
            throw new InvalidInputException(node.describe() + " has files, but this store has no object store");
        }
    }

    private void writeFiles(List<Node> nodes) {
        try {
            for (Node n : nodes) {
                if (n.files().hasPendingContent()) {
                    n.files().writeTo(container);
                }
            }
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "writing node files to the object store");
        }
    }

    /** The stored node with this id, typed by its node type. */
    public Node load(long id) {
        return loadOne(SELECT_BY_ID, id, "id " + id);
    }

    /** The stored node with this uuid, typed by its node type. */
    public Node load(UUID uuid) {
        return loadOne(SELECT_BY_UUID, uuid, "uuid " + uuid);
    }

    /** The stored node with this id, which must be of the given class. */
    public <T extends Node> T load(long id, Class<T> type) {
        Node node = load(id);
        if (!type.isInstance(node)) {
            throw new InvalidInputException(
                    node.describe() + " is a " + node.getClass().getSimpleName() + ", not a " + type.getSimpleName());
        }
        return type.cast(node);
    }

    private Node loadOne(String sql, Object key, String what) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, key);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NodeNotFoundException("no node with " + what);
                }
                return NodeTypes.read(NodeRows.read(rs, 1));
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "loading the node with " + what);
        }
    }

    /**
     * The hash of a stored node before and after {@link #rehash}.
     *
     * @param before the hash it had (null if it had none)
     * @param after  the hash computed now, which it has from now on
     */
    public record Rehash(String before, String after) {
        /** Whether the hash computed now differs from the stored one. */
        public boolean changed() {
            return !after.equals(before);
        }
    }

    /**
     * Computes the hash of a stored node again from what is stored (for a process, from its
     * inputs' stored hashes by link label) and stores it when it differs, so that caching
     * finds the node by the hash of today's form. Rehash inputs before the processes that
     * used them.
     *
     * @throws InvalidInputException if an input of a process has no hash
     */
    public Rehash rehash(long id) {
        Node node = load(id);
        try (Connection c = database.connection()) {
            String hash = hashing.rehash(c, node);
            if (!hash.equals(node.hash())) {
                try (PreparedStatement s = c.prepareStatement("UPDATE node SET hash = ? WHERE id = ?")) {
                    s.setString(1, hash);
                    s.setLong(2, id);
                    s.executeUpdate();
                }
            }
            return new Rehash(node.hash(), hash);
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "rehashing " + node.describe());
        }
    }

    /** Links into a stored node. */
    public List<LinkTriple> incoming(Node node) {
        return StoredLinks.incoming(database, node);
    }

    /** Links out of a stored node. */
    public List<LinkTriple> outgoing(Node node) {
        return StoredLinks.outgoing(database, node);
    }

    /**
     * Adds a RETURN link from a workflow to data that is stored already: the one link a
     * stored node may still receive. The workflow must not be sealed.
     */
    public void addReturnLink(WorkflowNode workflow, Data data, String label) {
        String what = "link RETURN " + workflow.describe() + " -> " + data.describe();
        if (!workflow.isStored() || !data.isStored()) {
            throw new LinkRuleException(
                    what + ": both ends must be stored; a workflow returns data a calculation made");
        }
        if (workflow.isSealed()) {
            throw new LinkRuleException(what + " (label '" + label + "'): " + workflow.describe() + " is sealed");
        }
        Labels.check(label, LinkType.RETURN, workflow.describe(), data.describe());
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO link (input_id, output_id, type, label) VALUES (?, ?, 'return', ?)")) {
            s.setLong(1, workflow.id());
            s.setLong(2, data.id());
            s.setString(3, label);
            s.executeUpdate();
        } catch (SQLException e) {
            throw SqlErrors.translate(e, what + " (label '" + label + "')");
        }
    }

    /** Sets a stored node's label (any node may change it) and its modification time. */
    public void setLabel(Node node, String label) {
        updates.setLabel(node, label);
    }

    /** Sets a stored node's description (any node may change it) and its modification time. */
    public void setDescription(Node node, String description) {
        updates.setDescription(node, description);
    }

    /** Sets one extra of a stored node (cleaned like attributes). */
    public void setExtra(Node node, String key, Object value) {
        requireStored(node);
        Map<String, Object> single = new LinkedHashMap<>();
        single.put(key, value);
        inOwnConnection(node, g -> g.mergeExtras(node, single));
    }

    /** Removes one extra of a stored node; nothing happens when it has none by that key. */
    public void deleteExtra(Node node, String key) {
        updates.deleteExtra(node, key);
    }

    /**
     * Changes what stays mutable of a stored node in one statement, so a change is made whole or
     * not at all: the label and the description ({@code null} leaves one as it is), the extras
     * merged with {@code extras} (cleaned as {@link #setExtra} cleans them), then the keys of
     * {@code removedExtras} taken out (an absent key is no error). Unlike the setters it takes
     * the node's id, so a caller need not load the node to change it.
     *
     * @throws NodeNotFoundException when no node has this id
     */
    public void update(
            long nodeId, String label, String description, Map<String, ?> extras, Collection<String> removedExtras) {
        updates.update(nodeId, label, description, extras, removedExtras);
    }

    /** Writes a stored process's state attributes (set on the node before) to the database. */
    void saveState(ProcessNode node) {
        requireStored(node);
        inOwnConnection(node, g -> g.saveState(node, false));
    }

    /** Seals a stored process: from now on neither it nor its links change. */
    void seal(ProcessNode node) {
        if (node.isSealed()) {
            return;
        }
        requireStored(node);
        inOwnConnection(node, g -> g.saveState(node, true));
    }

    private static void requireStored(Node node) {
        if (!node.isStored()) {
            throw new InvalidInputException(node.describe() + " is not stored; set it on the node before storing");
        }
    }

    /** One graph write on a pooled connection of its own, committed at once. */
    private void inOwnConnection(Node node, Consumer<GraphTransaction> write) {
        try (Connection c = database.connection()) {
            write.accept(inTransaction(c));
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "updating " + node.describe());
        }
    }

    /** The content of one of a stored node's files. */
    public byte[] readFile(Node node, String path) {
        try {
            return objects().get(key(node, path));
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "reading '" + path + "' of " + node.describe());
        }
    }

    /** A stream of one of a stored node's files; the caller closes it. */
    public InputStream openFile(Node node, String path) {
        try {
            return objects().open(key(node, path));
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "opening '" + path + "' of " + node.describe());
        }
    }

    /** One array of a stored {@link ArrayData}. */
    public NpyArray readArray(ArrayData node, String name) {
        node.shape(name);
        return NpyArray.fromBytes(readFile(node, ArrayData.fileName(name)));
    }

    private ObjectKey key(Node node, String path) {
        return node.files()
                .key(path)
                .orElseThrow(() -> new NotFoundException(node.describe() + " has no stored file '" + path + "'"));
    }

    /**
     * The object store this graph keeps node files in, for reads that go beyond
     * {@link #openFile}: an object's size ({@code meta}), many sizes at once, a stream to serve
     * a byte range of. Null when this store has none. Objects are found by the keys of
     * {@link Node#files()}; a node's files are written by storing the node (or, for a process,
     * by {@link GraphTransaction#replaceFiles}), not here.
     */
    public Container objectStore() {
        return container;
    }

    private Container objects() {
        if (container == null) {
            throw new InvalidInputException("this store has no object store, so it reads no files");
        }
        return container;
    }
}
