package dev.cairn.api.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StorageException;

/**
 * Nodes named in a URL: by uuid, or by a unique prefix of it (at least {@value #MIN_PREFIX}
 * hex digits, dashes as in the uuid), as AiiDA's API resolves them, or by PK as {@code pk:42}
 * (the number people type; the prefix keeps it apart from a uuid prefix of digits). An unknown
 * one is a 404; a prefix that names more than one node is a 409 naming some of them.
 */
@Component
public class NodeRefs {

    static final int MIN_PREFIX = 4;
    private static final Pattern PREFIX = Pattern.compile("[0-9a-f-]{" + MIN_PREFIX + ",36}");
    private static final Pattern PK = Pattern.compile("pk:[0-9]{1,18}");

    private final Engine engine;

    NodeRefs(Engine engine) {
        this.engine = engine;
    }

    /** The node's id. */
    public long id(String ref) {
        String r = ref.toLowerCase(Locale.ROOT);
        if (PK.matcher(r).matches()) {
            return pk(Long.parseLong(r.substring(3)));
        }
        if (!PREFIX.matcher(r).matches()) {
            throw new InvalidInputException("'" + ref + "' is not a node's uuid, a prefix of one (at least "
                    + MIN_PREFIX + " hex digits) nor a PK (pk:42)");
        }
        if (r.length() == 36) {
            return exact(UUID.fromString(r));
        }
        UuidPrefix range = UuidPrefix.of(r)
                .orElseThrow(() -> new NotFoundException("no node has a uuid beginning " + r
                        + " (a uuid's dashes come after its 8th, 12th, 16th and 20th digits)"));
        List<Long> ids = new ArrayList<>();
        List<String> uuids = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT id, uuid::text FROM node WHERE uuid BETWEEN ? AND ? ORDER BY id LIMIT 5")) {
            s.setObject(1, range.lowest());
            s.setObject(2, range.highest());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    uuids.add(rs.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("resolving the node " + ref, e);
        }
        if (ids.isEmpty()) {
            throw new NotFoundException("no node has a uuid beginning " + r);
        }
        if (ids.size() > 1) {
            throw new ConflictException("the prefix " + r + " names more than one node (" + String.join(", ", uuids)
                    + (ids.size() == 5 ? ", …" : "") + "): give more of the uuid");
        }
        return ids.getFirst();
    }

    /** The node itself. */
    public Node node(String ref) {
        return engine.graph().load(id(ref));
    }

    private long pk(long pk) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT 1 FROM node WHERE id = ?")) {
            s.setLong(1, pk);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no node has the PK " + pk);
                }
                return pk;
            }
        } catch (SQLException e) {
            throw new StorageException("resolving the node pk:" + pk, e);
        }
    }

    private long exact(UUID uuid) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT id FROM node WHERE uuid = ?")) {
            s.setObject(1, uuid);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no node has the uuid " + uuid);
                }
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new StorageException("resolving the node " + uuid, e);
        }
    }
}
