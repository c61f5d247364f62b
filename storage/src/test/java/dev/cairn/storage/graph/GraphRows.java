package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Nodes, links and users written with plain SQL, for tests that need a graph without the node
 * model. Works on an auto-committing connection; the schema's triggers check every link.
 */
final class GraphRows {

    static final String INT = "data.core.int.Int.";
    static final String STRUCTURE = "data.core.structure.StructureData.";
    static final String CALC_FUNCTION = "process.calculation.calcfunction.CalcFunctionNode.";
    static final String CALC_JOB = "process.calculation.calcjob.CalcJobNode.";
    static final String WORK_CHAIN = "process.workflow.workchain.WorkChainNode.";
    static final String WORK_FUNCTION = "process.workflow.workfunction.WorkFunctionNode.";

    private final Connection connection;
    private final long user;

    GraphRows(Connection connection) throws SQLException {
        this.connection = connection;
        this.user = user(connection, "rows-" + UUID.randomUUID() + "@example.com");
    }

    static long user(Connection connection, String email) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO app_user (email) VALUES (?) RETURNING id")) {
            s.setString(1, email);
            return single(s);
        }
    }

    long userId() {
        return user;
    }

    long data() throws SQLException {
        return node(INT, "{}");
    }

    long calc() throws SQLException {
        return node(CALC_FUNCTION, "{}");
    }

    long calcJob() throws SQLException {
        return node(CALC_JOB, "{}");
    }

    long workflow() throws SQLException {
        return node(WORK_CHAIN, "{}");
    }

    long node(String type, String repositoryMetadata) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime, user_id,"
            + " repository_metadata) VALUES (?, ?, now(), now(), ?, ?::jsonb) RETURNING id")) {
            s.setObject(1, UUID.randomUUID());
            s.setString(2, type);
            s.setLong(3, user);
            s.setString(4, repositoryMetadata);
            return single(s);
        }
    }

    long link(long input, long output, LinkType type, String label) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(
            "INSERT INTO link (input_id, output_id, type, label) VALUES (?, ?, ?, ?) RETURNING id")) {
            s.setLong(1, input);
            s.setLong(2, output);
            s.setString(3, type.dbValue());
            s.setString(4, label);
            return single(s);
        }
    }

    /** Seals a process node: it takes no more links, its attributes are frozen. */
    void seal(long process) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(
            "UPDATE node SET attributes = attributes || '{\"sealed\": true}' WHERE id = ?")) {
            s.setLong(1, process);
            s.executeUpdate();
        }
    }

    long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    boolean exists(long node) throws SQLException {
        return count("SELECT count(*) FROM node WHERE id = " + node) == 1;
    }

    private static long single(PreparedStatement s) throws SQLException {
        try (ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }
}
