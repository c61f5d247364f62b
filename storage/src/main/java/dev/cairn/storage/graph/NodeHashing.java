package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.hash.HashInput;
import dev.cairn.storage.hash.NodeHasher;

/**
 * Decides what goes into a node's hash and computes it when the node is stored: the node
 * and process type, the attributes that describe the node (not a process's changing state,
 * nor the scheduler options that do not change what a job computes), the file tree of data,
 * the computer, and for a process the hashes of its inputs by link label. A process's files
 * are left out: a calculation job is given its input files when it is submitted, after its
 * hash was computed, and a rehash or an import must find the hash a launch looks up.
 */
final class NodeHashing {

    /** Calculation job options that say how to queue a job, not what it computes. */
    private static final Set<String> JOB_OPTIONS_IGNORED =
            Set.of("queue_name", "account", "qos", "priority", "max_wallclock_seconds", "max_memory_kb", "version");

    private final Database database;
    private final Map<Long, UUID> computerUuids = new ConcurrentHashMap<>();

    NodeHashing(Database database) {
        this.database = database;
    }

    /** The hash of a node whose inputs are stored or hashed in {@code batch}. */
    String hash(Node node, Map<Node, String> batch) {
        return NodeHasher.hash(input(node, batch));
    }

    HashInput input(Node node, Map<Node, String> batch) {
        Map<String, String> inputs = Map.of();
        if (node instanceof ProcessNode) {
            inputs = new LinkedHashMap<>();
            for (PendingLink link : node.pendingIncoming()) {
                if (link.type() == LinkType.INPUT_CALC || link.type() == LinkType.INPUT_WORK) {
                    inputs.put(link.label(), inputHash(link, batch));
                }
            }
        }
        return withInputs(node, inputs);
    }

    /**
     * The hash of a stored node computed again from what is stored, read through {@code c}: for a process,
     * its inputs' stored hashes by link label.
     *
     * @throws InvalidInputException if an input of a process has no hash
     */
    String rehash(Connection c, Node node) throws SQLException {
        Map<String, String> inputs = new LinkedHashMap<>();
        if (node instanceof ProcessNode) {
            try (PreparedStatement s = c.prepareStatement("SELECT l.label, n.hash, n.uuid FROM link l"
                    + " JOIN node n ON n.id = l.input_id WHERE l.output_id = ? AND l.type IN (?, ?)"
                    + " ORDER BY l.id")) {
                s.setLong(1, node.id());
                s.setString(2, LinkType.INPUT_CALC.dbValue());
                s.setString(3, LinkType.INPUT_WORK.dbValue());
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getString(2) == null) {
                            throw new InvalidInputException("input '" + rs.getString(1) + "' ("
                                    + rs.getString(3) + ") of " + node.describe() + " has no hash: rehash it"
                                    + " first");
                        }
                        inputs.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
        }
        return NodeHasher.hash(withInputs(node, inputs));
    }

    private HashInput withInputs(Node node, Map<String, String> inputs) {
        UUID computer = node.computerId() == null ? null : computerUuid(node.computerId());
        return input(
                node.nodeType(),
                node.processType(),
                node.attributesForStore(),
                node.files().toMetadata(),
                computer,
                inputs);
    }

    /**
     * What goes into the hash of a node given as its stored columns (an imported row): a process's
     * changing state, its files and a job's queueing options are left out, as for a node of the class.
     */
    static HashInput input(
            String nodeType,
            String processType,
            Map<String, Object> attributes,
            Map<String, Object> files,
            UUID computer,
            Map<String, String> inputs) {
        boolean process = nodeType.startsWith("process.");
        if (process) {
            boolean job = CalcJobNode.TYPE.equals(nodeType);
            Set<String> ignored = job ? CalcJobNode.updatableAttributes() : ProcessNode.UPDATABLE;
            Map<String, Object> counted = new LinkedHashMap<>();
            attributes.forEach((k, v) -> {
                if (!ignored.contains(k) && !(job && JOB_OPTIONS_IGNORED.contains(k))) {
                    counted.put(k, v);
                }
            });
            attributes = counted;
        }
        return new HashInput(
                nodeType, processType, attributes, process ? Map.of() : files, computer, process ? inputs : Map.of());
    }

    private static String inputHash(PendingLink link, Map<Node, String> batch) {
        Node source = link.source();
        String hash = source.isStored() ? source.hash() : batch.get(source);
        if (hash == null) {
            throw new IllegalStateException("input '" + link.label() + "' (" + source.describe() + ") has no hash");
        }
        return hash;
    }

    /**
     * Reads the UUIDs of the batch's computers now, in one query, so that hashing later (on
     * the thread that makes COPY rows) needs no connection of its own from the pool.
     */
    void prefetchComputers(List<Node> nodes) {
        Long[] ids = nodes.stream()
                .map(Node::computerId)
                .filter(Objects::nonNull)
                .filter(id -> !computerUuids.containsKey(id))
                .distinct()
                .toArray(Long[]::new);
        if (ids.length == 0) {
            return;
        }
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT id, uuid FROM computer WHERE id = ANY (?)")) {
            s.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    computerUuids.put(rs.getLong(1), rs.getObject(2, UUID.class));
                }
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "reading the computers of a batch");
        }
        for (Long id : ids) {
            if (!computerUuids.containsKey(id)) {
                throw new NotFoundException("no computer with id " + id);
            }
        }
    }

    private UUID computerUuid(long id) {
        UUID known = computerUuids.get(id);
        if (known != null) {
            return known;
        }
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid FROM computer WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no computer with id " + id);
                }
                UUID uuid = rs.getObject(1, UUID.class);
                computerUuids.put(id, uuid);
                return uuid;
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "reading computer " + id);
        }
    }
}
