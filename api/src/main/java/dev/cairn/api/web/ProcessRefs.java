package dev.cairn.api.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.StorageException;

/**
 * Processes named in a URL: a node reference ({@link NodeRefs}: a uuid or a unique prefix of
 * one) that must name a process node. A data node is a 404 that says what it is.
 */
@Component
public class ProcessRefs {

    private final NodeRefs nodes;
    private final Engine engine;

    ProcessRefs(NodeRefs nodes, Engine engine) {
        this.nodes = nodes;
        this.engine = engine;
    }

    /** The process node's id. */
    public long id(String ref) {
        long id = nodes.id(ref);
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT node_type, uuid FROM node WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("no node has a uuid beginning " + ref);
                }
                if (!rs.getString(1).startsWith("process.")) {
                    throw new NotFoundException("node " + rs.getString(2) + " is not a process but data ("
                            + rs.getString(1) + "); GET /api/v1/processes lists the processes");
                }
                return id;
            }
        } catch (SQLException e) {
            throw new StorageException("resolving the process " + ref, e);
        }
    }
}
