package dev.cairn.storage.graph;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.db.JsonText;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.visibility.Internal;

/**
 * Graph writes and reads inside a transaction the caller owns, for work that must commit
 * with rows of its own (the engine commits a process step's nodes with its checkpoint).
 * <p>
 * Nodes are marked stored as soon as their rows are written: a caller that rolls back
 * must drop the node objects it stored, as their ids no longer exist.
 */
public final class GraphTransaction {

    private static final String INPUTS = "SELECT l.label, " + NodeRows.COLUMNS
            + " FROM link l JOIN node n ON n.id = l.input_id WHERE l.output_id = ? AND l.type IN ('input_calc', 'input_work')"
            + " ORDER BY l.id";
    private static final String OUTPUTS = "SELECT l.label, " + NodeRows.COLUMNS
            + " FROM link l JOIN node n ON n.id = l.output_id WHERE l.input_id = ? AND l.type IN ('create', 'return')"
            + " ORDER BY l.id";
    private static final String BY_IDS = "SELECT " + NodeRows.COLUMNS + " FROM node n WHERE n.id = ANY(?)";

    private final Connection connection;
    private final GraphStore store;

    GraphTransaction(Connection connection, GraphStore store) {
        this.connection = connection;
        this.store = store;
    }

    /** The transaction's connection, for the engine's own rows that commit with the graph's. */
    @Internal
    public Connection connection() {
        return connection;
    }

    /** The same transaction, storing new nodes as {@code userId}'s (a process's nodes belong to its user). */
    public GraphTransaction asUser(long userId) {
        return userId == store.userId() ? this : new GraphTransaction(connection, store.forUser(userId));
    }

    /** Stores new nodes with their links (to each other and to stored nodes), sources first. */
    public void storeAll(Collection<? extends Node> nodes) {
        if (nodes.isEmpty()) {
            return;
        }
        insert(nodes).forEach(Node::markStored);
    }

    /** Writes the rows of new nodes and their links; returns each node's state, not yet applied to it. */
    Map<Node, Node.StoredState> insert(Collection<? extends Node> nodes) {
        return insertPrepared(store.prepareBatch(nodes));
    }

    /** Writes the rows of a batch {@link GraphStore#prepareBatch prepared} before. */
    Map<Node, Node.StoredState> insertPrepared(List<Node> ordered) {
        try {
            return NodeInserter.insertBatch(connection, ordered, store.userId(), store.hashing());
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "storing a batch of " + ordered.size() + " nodes");
        }
    }

    /** Stored nodes by id, each typed by its node type; an id with no node is missing from the map. */
    public Map<Long, Node> loadAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<Long, Node> nodes = new HashMap<>(ids.size() * 2);
        try (PreparedStatement s = connection.prepareStatement(BY_IDS)) {
            s.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Node n = NodeTypes.read(NodeRows.read(rs, 1));
                    nodes.put(n.id(), n);
                }
            }
            return nodes;
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "loading " + ids.size() + " nodes");
        }
    }

    /**
     * The stored node with this id, typed by its node type, read in this transaction.
     *
     * @throws NodeNotFoundException if there is no such node
     */
    public Node load(long id) {
        Node node = loadAll(List.of(id)).get(id);
        if (node == null) {
            throw new NodeNotFoundException("no node with id " + id);
        }
        return node;
    }

    /** A process's inputs by link label, in the order they were linked. */
    public Map<String, Node> inputsOf(long processId) {
        return labelled(INPUTS, processId, "inputs");
    }

    /** A process's outputs (CREATE and RETURN links) by link label. */
    public Map<String, Node> outputsOf(long processId) {
        return labelled(OUTPUTS, processId, "outputs");
    }

    private Map<String, Node> labelled(String sql, long processId, String what) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    nodes.put(rs.getString(1), NodeTypes.read(NodeRows.read(rs, 2)));
                }
            }
            return nodes;
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "loading the " + what + " of process " + processId);
        }
    }

    /**
     * RETURN links from a workflow to data, by label; both must be stored (in this
     * transaction or before). The database refuses them when the workflow was sealed by an
     * earlier transaction.
     */
    public void addReturnLinks(WorkflowNode workflow, Map<String, ? extends Data> outputs) {
        if (outputs.isEmpty()) {
            return;
        }
        try (PreparedStatement s = connection.prepareStatement(
                "INSERT INTO link (input_id, output_id, type, label) VALUES (?, ?, 'return', ?)")) {
            for (var e : outputs.entrySet()) {
                Labels.check(
                        e.getKey(),
                        LinkType.RETURN,
                        workflow.describe(),
                        e.getValue().describe());
                if (!e.getValue().isStored()) {
                    throw new LinkRuleException("link RETURN " + workflow.describe() + " -> "
                            + e.getValue().describe() + " (label '" + e.getKey()
                            + "'): a workflow returns stored data only");
                }
                s.setLong(1, workflow.id());
                s.setLong(2, e.getValue().id());
                s.setString(3, e.getKey());
                s.addBatch();
            }
            s.executeBatch();
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "RETURN links from " + workflow.describe());
        }
    }

    /**
     * Writes a stored process's state attributes; seals it too when {@code seal}. Only the
     * engine's state writer calls it: the process row must change in the same transaction.
     */
    @Internal
    public void saveState(ProcessNode node, boolean seal) {
        if (seal && !node.isSealed()) {
            node.markSealed();
        }
        try (PreparedStatement s =
                connection.prepareStatement("UPDATE node SET attributes = ?::jsonb, mtime = now() WHERE id = ?")) {
            s.setString(1, JsonText.write(node.attributesForStore()));
            s.setLong(2, node.id());
            if (s.executeUpdate() != 1) {
                throw new NodeNotFoundException(node.describe() + " is no longer in the database");
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "saving the state of " + node.describe());
        }
    }

    /**
     * Gives a stored process that is not sealed the files and folders under {@code folder}, in
     * place of those it had: a calculation job keeps the input files it was submitted with. The
     * contents go to the object store at once, the node's {@code repository_metadata} in this
     * transaction; on a rollback the node keeps the files it had (the objects written stay
     * unreferenced, for maintenance to remove). The node's hash does not change: a process's
     * files are not part of it.
     *
     * @throws InvalidInputException           when the node is not stored (give it files before storing it)
     * @throws ModificationNotAllowedException when the process is sealed
     */
    public void replaceFiles(ProcessNode node, Path folder) {
        if (!node.isStored()) {
            throw new InvalidInputException(node.describe() + " is not stored; give it its files before storing it");
        }
        if (node.isSealed()) {
            throw new ModificationNotAllowedException(node.describe() + " is sealed: its files cannot change");
        }
        NodeFiles files = storedTree(folder);
        try (PreparedStatement s = connection.prepareStatement(
                "UPDATE node SET repository_metadata = ?::jsonb, mtime = now() WHERE id = ?")) {
            s.setString(1, JsonText.write(files.toMetadata()));
            s.setLong(2, node.id());
            if (s.executeUpdate() != 1) {
                throw new NodeNotFoundException(node.describe() + " is no longer in the database");
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "replacing the files of " + node.describe());
        }
        node.replaceStoredFiles(files);
    }

    /**
     * The files and folders under {@code folder} as a stored node's files: their contents are
     * written to the object store now, so each file has its key.
     */
    private NodeFiles storedTree(Path folder) {
        NodeFiles files = new NodeFiles();
        try {
            files.putTree("", folder);
            if (files.hasPendingContent()) {
                if (store.objectStore() == null) {
                    throw new InvalidInputException(folder + " has files, but this store has no object store");
                }
                files.writeTo(store.objectStore());
            }
        } catch (IOException e) {
            throw ObjectStoreErrors.translate(e, "writing the files of " + folder + " to the object store");
        }
        files.freeze();
        return files;
    }

    /** Sets extras of a stored node (merged into those it has). */
    public void mergeExtras(Node node, Map<String, ?> extras) {
        Map<String, Object> merged = new LinkedHashMap<>(node.extras());
        for (var e : extras.entrySet()) {
            AttributeValues.checkKey(e.getKey(), node.describe() + " extras");
            merged.put(e.getKey(), AttributeValues.clean(e.getValue(), "extras." + e.getKey()));
        }
        try (PreparedStatement s = connection.prepareStatement(
                "UPDATE node SET extras = extras || ?::jsonb, mtime = now() WHERE id = ? RETURNING mtime")) {
            s.setString(1, JsonText.write(merged));
            s.setLong(2, node.id());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NodeNotFoundException(node.describe() + " is no longer in the database");
                }
                node.updateStored(
                        node.label(),
                        node.description(),
                        Collections.unmodifiableMap(merged),
                        rs.getObject(1, OffsetDateTime.class));
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "setting extras of " + node.describe());
        }
    }

    /** Appends log records for stored nodes. */
    public void appendLogs(List<LogEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        try {
            LogStore.insert(connection, entries);
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "appending " + entries.size() + " log records");
        }
    }
}
