package dev.cairn.api.codes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.web.NodeRefs;
import dev.cairn.engine.Engine;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * The codes in the graph: found by uuid, {@code label@computer} or label, listed a page at a
 * time, and deleted while unused. Codes are nodes of two types; these are the queries on them.
 */
@Component
public class StoredCodes {

    private static final Pattern UUID_PREFIX = Pattern.compile("[0-9a-fA-F-]{4,36}");
    private static final String IS_CODE = "node_type IN ('" + InstalledCode.TYPE + "', '" + PortableCode.TYPE + "')";

    private final Engine engine;
    private final NodeRefs nodes;
    private final ComputerRefs computers;
    private final ComputerStore computerStore;

    StoredCodes(Engine engine, NodeRefs nodes, ComputerRefs computers) {
        this.engine = engine;
        this.nodes = nodes;
        this.computers = computers;
        this.computerStore = new ComputerStore(engine.database());
    }

    /** The code a URL names: by uuid or a prefix of it, {@code label@computer}, or a label only one code has. */
    public Code find(String ref) {
        int at = ref.lastIndexOf('@');
        if (at > 0) {
            String label = ref.substring(0, at);
            Computer computer = computers.inPath(ref.substring(at + 1));
            List<Long> ids = ids("label = ? AND computer_id = ?", label, computer.id());
            if (ids.isEmpty()) {
                throw new NotFoundException("computer '" + computer.label() + "' has no code labelled '" + label + "'");
            }
            return load(ids.getFirst());
        }
        if (UUID_PREFIX.matcher(ref).matches()) {
            try {
                Node node = nodes.node(ref.toLowerCase(Locale.ROOT));
                if (node instanceof Code code) {
                    return code;
                }
                throw new NotFoundException("node " + node.uuid() + " is a " + node.nodeType() + ", not a code");
            } catch (NotFoundException e) {
                // a label may look like the start of a uuid ("cafe"): try it as one
                if (byLabel(ref).isEmpty()) {
                    throw e;
                }
            }
        }
        List<Long> ids = byLabel(ref);
        if (ids.isEmpty()) {
            throw new NotFoundException("no code is labelled '" + ref + "' (nor has a uuid beginning so); name a code"
                    + " by uuid, label@computer or label");
        }
        if (ids.size() > 1) {
            throw new ConflictException("more than one code is labelled '" + ref + "' ("
                    + String.join(
                            ", ", ids.stream().map(id -> fullLabel(load(id))).toList())
                    + "): name it as label@computer or by uuid");
        }
        return load(ids.getFirst());
    }

    /** Whether a code installed on {@code computerId} has the label, or a portable code if that is null. */
    boolean labelTaken(String label, Long computerId) {
        return computerId == null
                ? !ids("label = ? AND node_type = '" + PortableCode.TYPE + "'", label)
                        .isEmpty()
                : !ids("label = ? AND computer_id = ?", label, computerId).isEmpty();
    }

    /** One page of the codes (of one computer, or all), by id, after {@code afterId}. */
    List<Code> page(Long computerId, long afterId, int limit) {
        List<Long> ids = computerId == null
                ? ids("id > ? ORDER BY id LIMIT ?", afterId, limit)
                : ids("computer_id = ? AND id > ? ORDER BY id LIMIT ?", computerId, afterId, limit);
        return ids.stream().map(this::load).toList();
    }

    /**
     * Deletes an unused code. The node's row is locked first: a process that takes the code as
     * input links to it, which waits for the lock and then finds no node, so no process can start
     * using the code between the check and the deletion.
     */
    void delete(Code code) {
        try {
            Transactions.run(engine.database(), c -> {
                try (PreparedStatement lock = c.prepareStatement("SELECT id FROM node WHERE id = ? FOR UPDATE")) {
                    lock.setLong(1, code.id());
                    try (ResultSet r = lock.executeQuery()) {
                        if (!r.next()) {
                            throw new NotFoundException("code " + code.uuid() + " was deleted meanwhile");
                        }
                    }
                }
                long uses = count(c, "SELECT count(DISTINCT output_id) FROM link WHERE input_id = ?", code.id());
                if (uses > 0) {
                    throw new ConflictException("code " + fullLabel(code) + " (" + code.uuid() + ") was used by " + uses
                            + " process" + (uses == 1 ? "" : "es") + ": it is part of their provenance and stays");
                }
                new NodeDeleter(engine.database()).delete(c, NodeIds.of(code.id()), TraversalRules.DELETE);
                return null;
            });
        } catch (SQLException e) {
            throw new StorageException("deleting code " + code.uuid(), e);
        }
    }

    /** {@code label@computer} for an installed code, the label for a portable one. */
    String fullLabel(Code code) {
        return code instanceof InstalledCode ? code.label() + "@" + computerLabel(code) : code.label();
    }

    /** The label of an installed code's computer; null for a portable code. */
    String computerLabel(Code code) {
        return code.computerId() == null
                ? null
                : computerStore.get(code.computerId()).label();
    }

    CodeView view(Code code) {
        return CodeView.of(code, computerLabel(code));
    }

    private List<Long> byLabel(String label) {
        return ids("label = ?", label);
    }

    private Code load(long id) {
        return (Code) engine.graph().load(id);
    }

    private List<Long> ids(String where, Object... parameters) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT id FROM node WHERE " + IS_CODE + " AND " + where)) {
            for (int i = 0; i < parameters.length; i++) {
                s.setObject(i + 1, parameters[i]);
            }
            List<Long> ids = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getLong(1));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw new StorageException("finding codes", e);
        }
    }

    private static long count(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
