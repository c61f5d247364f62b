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
public final class GraphRows {

    public static final String INT = "data.core.int.Int.";
    public static final String STRUCTURE = "data.core.structure.StructureData.";
    public static final String CALC_FUNCTION = "process.calculation.calcfunction.CalcFunctionNode.";
    public static final String CALC_JOB = "process.calculation.calcjob.CalcJobNode.";
    public static final String WORK_CHAIN = "process.workflow.workchain.WorkChainNode.";
    public static final String WORK_FUNCTION = "process.workflow.workfunction.WorkFunctionNode.";

    private final Connection connection;
    private final long user;

    public GraphRows(Connection connection) throws SQLException {
        this.connection = connection;
        this.user = user(connection, "rows-" + UUID.randomUUID() + "@example.com");
    }

    public static long user(Connection connection, String email) throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement("INSERT INTO app_user (email) VALUES (?) RETURNING id")) {
            s.setString(1, email);
            return single(s);
        }
    }

    public long userId() {
        return user;
    }

    public long data() throws SQLException {
        return node(INT, "{}");
    }

    public long calc() throws SQLException {
        return node(CALC_FUNCTION, "{}");
    }

    public long calcJob() throws SQLException {
        return node(CALC_JOB, "{}");
    }

    public long workflow() throws SQLException {
        return node(WORK_CHAIN, "{}");
    }

    public long node(String type, String repositoryMetadata) throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime, user_id,"
                        + " repository_metadata) VALUES (?, ?, now(), now(), ?, ?::jsonb) RETURNING id")) {
            s.setObject(1, UUID.randomUUID());
            s.setString(2, type);
            s.setLong(3, user);
            s.setString(4, repositoryMetadata);
            return single(s);
        }
    }

    public long link(long input, long output, LinkType type, String label) throws SQLException {
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
    public void seal(long process) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(
                "UPDATE node SET attributes = attributes || '{\"sealed\": true}' WHERE id = ?")) {
            s.setLong(1, process);
            s.executeUpdate();
        }
    }

    public long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    public boolean exists(long node) throws SQLException {
        return count("SELECT count(*) FROM node WHERE id = " + node) == 1;
    }

    private static long single(PreparedStatement s) throws SQLException {
        try (ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }
}
