package dev.cairn.storage.graph;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A node of the provenance graph: data, or a process that made or used data.
 * <p>
 * A node is built in memory, given its incoming links, and stored by {@link GraphStore}.
 * Storing freezes it: attributes, files, computer and incoming links can no longer change,
 * and setters throw {@link ModificationNotAllowedException}. Label, description and extras
 * stay mutable through the store; a process node's state attributes, and its files (through
 * {@link GraphTransaction#replaceFiles}), stay mutable until it is sealed. Attribute values
 * are cleaned on the way in ({@link AttributeValues}), and every view handed out is
 * read-only, so there is no copy that silently drops writes.
 */
public abstract sealed class Node permits Data, ProcessNode {

    private final String nodeType;
    private final UUID uuid;
    private final String processType;
    private final Map<String, Object> attributes;
    private final Map<String, Object> attributesView;
    private NodeFiles files;
    private final List<PendingLink> incoming = new ArrayList<>();
    private String label;
    private String description;
    private Map<String, Object> extras;
    private Long computerId;
    private StoredState stored;

    /** What the database assigned when the node was stored. */
    record StoredState(long id, OffsetDateTime ctime, OffsetDateTime mtime, long userId, String hash) {}

    /** A new, unstored node of the given type. */
    protected Node(String nodeType, String processType) {
        this.nodeType = NodeTypes.checkSyntax(nodeType);
        this.processType = processType;
        this.uuid = Uuids.v7();
        this.attributes = new LinkedHashMap<>();
        this.attributesView = Collections.unmodifiableMap(attributes);
        this.files = new NodeFiles();
        this.label = "";
        this.description = "";
        this.extras = Map.of();
    }

    /** A stored node read back from its row. */
    protected Node(NodeRecord row) {
        this.nodeType = row.nodeType();
        this.processType = row.processType();
        this.uuid = row.uuid();
        // cleaning again copies into unmodifiable maps and lists all the way down
        this.attributes = new LinkedHashMap<>(AttributeValues.cleanMap(row.attributes(), "attributes"));
        this.attributesView = Collections.unmodifiableMap(attributes);
        this.files = NodeFiles.fromMetadata(row.repositoryMetadata());
        this.label = row.label();
        this.description = row.description();
        this.extras = AttributeValues.cleanMap(row.extras(), "extras");
        this.computerId = row.computerId();
        this.stored = new StoredState(row.id(), row.ctime(), row.mtime(), row.userId(), row.hash());
    }

    /** The node type, which says what class the node is read back as. */
    public final String nodeType() {
        return nodeType;
    }

    /** For process nodes, what ran (an entry-point name); otherwise null. */
    public final String processType() {
        return processType;
    }

    /** The node's uuid, fixed when the node is made. */
    public final UUID uuid() {
        return uuid;
    }

    /** Whether the node is in the database. */
    public final boolean isStored() {
        return stored != null;
    }

    /** The database id; only stored nodes have one. */
    public final long id() {
        return state("an id").id();
    }

    /**
     * When the node was stored.
     *
     * @throws IllegalStateException if the node is not stored
     */
    public final OffsetDateTime ctime() {
        return state("a creation time").ctime();
    }

    /**
     * When the node was last changed.
     *
     * @throws IllegalStateException if the node is not stored
     */
    public final OffsetDateTime mtime() {
        return state("a modification time").mtime();
    }

    /**
     * The id of the user the node belongs to.
     *
     * @throws IllegalStateException if the node is not stored
     */
    public final long userId() {
        return state("a user").userId();
    }

    /** The hash computed when the node was stored (hex BLAKE2b-256). */
    public final String hash() {
        return state("a hash").hash();
    }

    /** The node's label (empty when it has none). */
    public final String label() {
        return label;
    }

    /** The node's description (empty when it has none). */
    public final String description() {
        return description;
    }

    /** Sets the label of an unstored node; a stored one changes through {@link GraphStore#setLabel}. */
    public final void setLabel(String label) {
        requireUnstored("label (use GraphStore.setLabel)");
        this.label = Objects.requireNonNull(label, "label");
    }

    /** Sets the description of an unstored node; a stored one changes through the store. */
    public final void setDescription(String description) {
        requireUnstored("description (use GraphStore.setDescription)");
        this.description = Objects.requireNonNull(description, "description");
    }

    /** All attributes, read-only. */
    public final Map<String, Object> attributes() {
        return attributesView;
    }

    /** One attribute, or null when absent. */
    public final Object attribute(String key) {
        return attributes.get(key);
    }

    /** Sets an attribute (cleaned) on an unstored node, or an updatable one on an unsealed process. */
    protected final void setAttribute(String key, Object value) {
        AttributeValues.checkKey(key, describe() + " attributes");
        if (isStored() && !mayUpdateWhenStored(key)) {
            throw new ModificationNotAllowedException(
                    describe() + " is stored: attribute '" + key + "' cannot change" + whyNotUpdatable());
        }
        attributes.put(key, AttributeValues.clean(value, "attributes." + key));
    }

    /** Whether a stored node may still change this attribute; data nodes never may. */
    boolean mayUpdateWhenStored(String key) {
        return false;
    }

    String whyNotUpdatable() {
        return "";
    }

    /** Extras: free metadata that stays mutable. Read-only view. */
    public final Map<String, Object> extras() {
        return extras;
    }

    /** Sets the extras of an unstored node (cleaned); stored ones change through the store. */
    public final void setExtras(Map<String, ?> extras) {
        requireUnstored("extras (use GraphStore.setExtra)");
        this.extras = AttributeValues.cleanMap(extras, describe() + " extras");
    }

    /** The id of the computer the node belongs to, or null for none. */
    public final Long computerId() {
        return computerId;
    }

    /** The computer the node belongs to (a code, remote folder or calculation job). */
    public final void setComputerId(Long computerId) {
        requireUnstored("computer");
        this.computerId = computerId;
    }

    /** The node's files; frozen once stored (a process's are replaced whole, not edited). */
    public final NodeFiles files() {
        return files;
    }

    /**
     * Adds an incoming link from {@code source}, written when this node is stored. The
     * link's rules that this node alone can check are checked now: the kinds of node the
     * type joins, the label, and this side's degree.
     */
    public final void addIncoming(Node source, LinkType type, String label) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        String what = "link " + type + " " + source.describe() + " -> " + describe();
        requireUnstored("incoming links (" + what + ")");
        if (source == this) {
            throw new LinkRuleException(what + ": a node cannot link to itself");
        }
        Labels.check(label, type, source.describe(), describe());
        if (LinkType.NodeClass.of(source.nodeType) != type.source()
                || LinkType.NodeClass.of(nodeType) != type.target()) {
            throw new LinkRuleException(what + " (label '" + label + "'): " + type + " links a "
                    + type.source().name().toLowerCase() + " node to a "
                    + type.target().name().toLowerCase() + " node");
        }
        if (source instanceof ProcessNode p && p.isSealed() && p.isStored()) {
            throw new LinkRuleException(what + " (label '" + label + "'): " + source.describe() + " is sealed");
        }
        for (PendingLink existing : incoming) {
            if (existing.type() != type) {
                continue;
            }
            boolean clash = switch (type.inDegree()) {
                case UNIQUE -> true;
                case UNIQUE_PAIR -> existing.label().equals(label);
                case UNIQUE_TRIPLE -> existing.label().equals(label) && existing.source() == source;
            };
            if (clash) {
                throw new LinkRuleException(what + " (label '" + label + "'): " + describe() + " already has "
                        + (type.inDegree() == LinkType.Degree.UNIQUE
                                ? "a " + type + " link (from "
                                        + existing.source().describe() + ")"
                                : "an incoming " + type + " link labelled '" + label + "'"));
            }
        }
        incoming.add(new PendingLink(source, type, label));
    }

    /** Incoming links waiting for the node to be stored; empty once stored. */
    public final List<PendingLink> pendingIncoming() {
        return Collections.unmodifiableList(incoming);
    }

    /** "node 12 (data.core.int.Int.)", or "unstored node <uuid> (…)". */
    public final String describe() {
        String type = "(" + nodeType + ")";
        return stored != null ? "node " + stored.id() + " " + type : "unstored node " + uuid + " " + type;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + describe() + (label.isEmpty() ? "" : ", label " + label) + "]";
    }

    final void requireUnstored(String what) {
        if (isStored()) {
            throw new ModificationNotAllowedException(describe() + " is stored: its " + what + " cannot change");
        }
    }

    private StoredState state(String what) {
        if (stored == null) {
            throw new IllegalStateException(describe() + " is not stored, so it has no " + what + " yet");
        }
        return stored;
    }

    /** Attributes as they go to the database (a live map: callers must not change it). */
    final Map<String, Object> attributesForStore() {
        return attributes;
    }

    /** Makes a node read from a row into a new, unstored node (a copy under a new uuid). */
    final void forgetStored() {
        this.stored = null;
        this.extras = Map.of();
    }

    final void markStored(StoredState state) {
        this.stored = state;
        incoming.clear();
        files.freeze();
    }

    /** Takes the files a transaction gave the stored process (frozen, every file with its key). */
    final void replaceStoredFiles(NodeFiles stored) {
        this.files = stored;
    }

    final void updateStored(String label, String description, Map<String, Object> extras, OffsetDateTime mtime) {
        this.label = label;
        this.description = description;
        this.extras = extras;
        this.stored = new StoredState(stored.id(), stored.ctime(), mtime, stored.userId(), stored.hash());
    }
}
