package dev.cairn.api.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.StorageException;

/**
 * Processes named in a URL: a node reference ({@link NodeRefs}: a uuid, a unique prefix of
 * one, or pk:42) that must name a process node. A data node is a 404 that says what it is.
 */
@Component
public class ProcessRefs {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final NodeRefs nodes;
    private final Engine engine;

    ProcessRefs(NodeRefs nodes, Engine engine) {
        this.nodes = nodes;
        this.engine = engine;
    }

    /** The process node's id. */
    public long id(String ref) {
        // a whole uuid, the usual case, costs one statement; a prefix is resolved first
        boolean whole = UUID_TEXT.matcher(ref).matches();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT node_type, uuid, id FROM node WHERE " + (whole ? "uuid = ?::uuid" : "id = ?"))) {
            if (whole) {
                s.setString(1, ref);
            } else {
                s.setLong(1, nodes.id(ref));
            }
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no node has the uuid " + ref);
                }
                if (!rs.getString(1).startsWith("process.")) {
                    throw new NotFoundException("node " + rs.getString(2) + " is not a process but data ("
                            + rs.getString(1) + "); GET /api/v1/processes lists the processes");
                }
                return rs.getLong(3);
            }
        } catch (SQLException e) {
            throw new StorageException("resolving the process " + ref, e);
        }
    }
}
