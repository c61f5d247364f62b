package dev.cairn.storage.graph.codes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * The code nodes of the graph (installed and portable codes): their ids by label, by label and computer,
 * a page at a time by id, and the deletion of one no process used. Codes are stored and loaded as nodes
 * ({@code GraphStore}); this finds them.
 */
public final class CodeStore {

    private static final String IS_CODE = "node_type IN ('" + InstalledCode.TYPE + "', '" + PortableCode.TYPE + "')";

    private final Database database;

    /** The codes of this database. */
    public CodeStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The ids of the codes with this label, by id. */
    public List<Long> withLabel(String label) {
        return ids("label = ? ORDER BY id", label);
    }

    /** The ids of the codes with this label installed on the computer {@code computerId}, by id. */
    public List<Long> withLabel(String label, long computerId) {
        return ids("label = ? AND computer_id = ? ORDER BY id", label, computerId);
    }

    /** Whether a code installed on {@code computerId} has the label, or a portable code if that is null. */
    public boolean labelTaken(String label, Long computerId) {
        return computerId == null
                ? !ids("label = ? AND node_type = '" + PortableCode.TYPE + "'", label)
                        .isEmpty()
                : !withLabel(label, computerId).isEmpty();
    }

    /** The ids of a page of the codes (of one computer, or all), by id, after {@code afterId}. */
    public List<Long> page(Long computerId, long afterId, int limit) {
        return computerId == null
                ? ids("id > ? ORDER BY id LIMIT ?", afterId, limit)
                : ids("computer_id = ? AND id > ? ORDER BY id LIMIT ?", computerId, afterId, limit);
    }

    /**
     * Deletes a code no process used; one that was used is a conflict, for it is part of their provenance.
     * The node's row is locked first: a process that takes the code as input links to it, which waits for
     * the lock and then finds no node, so no process can start using the code between the check and the
     * deletion.
     *
     * @param name how messages name the code ({@code label@computer})
     */
    public void deleteUnused(Code code, String name) {
        try {
            Transactions.run(database, c -> {
                try (PreparedStatement lock = c.prepareStatement("SELECT id FROM node WHERE id = ? FOR UPDATE")) {
                    lock.setLong(1, code.id());
                    try (ResultSet r = lock.executeQuery()) {
                        if (!r.next()) {
                            throw new NotFoundException("code " + code.uuid() + " was deleted meanwhile");
                        }
                    }
                }
                long uses = uses(c, code.id());
                if (uses > 0) {
                    throw new ConflictException("code " + name + " (" + code.uuid() + ") was used by " + uses
                            + " process" + (uses == 1 ? "" : "es") + ": it is part of their provenance and stays");
                }
                new NodeDeleter(database).delete(c, NodeIds.of(code.id()), TraversalRules.DELETE);
                return null;
            });
        } catch (SQLException e) {
            throw new StorageException("deleting code " + code.uuid(), e);
        }
    }

    private static long uses(Connection c, long id) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT count(DISTINCT output_id) FROM link WHERE input_id = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private List<Long> ids(String where, Object... parameters) {
        try (Connection c = database.connection();
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
}
