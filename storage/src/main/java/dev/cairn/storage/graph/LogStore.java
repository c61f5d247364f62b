package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.NotFoundException;

/**
 * Log records that processes write about themselves. Appends come in batches (a worker
 * flushes what its processes logged), sent as one JDBC batch that the driver rewrites into
 * multi-row inserts.
 */
public final class LogStore {

    private final Database database;

    /** The log records of the processes of this database. */
    public LogStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Appends the entries in one transaction.
     *
     * @return the number appended
     * @throws NotFoundException if an entry names a node that does not exist; then nothing is appended
     */
    public int append(List<LogEntry> entries) throws SQLException {
        if (entries.isEmpty()) {
            return 0;
        }
        return Transactions.run(database, c -> {
            long[] nodes =
                    entries.stream().mapToLong(LogEntry::nodeId).distinct().toArray();
            NodeIds.Selection selection = NodeIds.of(nodes).select(c);
            selection.requireNodes(c, "nodes of the log entries");
            insert(c, entries);
            return entries.size();
        });
    }

    /** Inserts log records in the caller's transaction (the nodes are not checked here). */
    static void insert(Connection c, List<LogEntry> entries) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO log (uuid, time, logger_name, level_name, node_id,"
                + " message, metadata) VALUES (?, ?, ?, ?, ?, ?, ?::jsonb)")) {
            for (LogEntry e : entries) {
                s.setObject(1, UUID.randomUUID());
                s.setObject(2, e.time());
                s.setString(3, e.loggerName());
                s.setString(4, e.level().name());
                s.setLong(5, e.nodeId());
                s.setString(6, e.message());
                s.setString(7, JsonCodec.write(e.metadata()));
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** The node's log, oldest first. */
    public List<LogRecord> forNode(long nodeId) throws SQLException {
        return forNode(nodeId, LogLevel.DEBUG);
    }

    /** The node's records at {@code minimum} or more severe, oldest first. */
    public List<LogRecord> forNode(long nodeId, LogLevel minimum) throws SQLException {
        String[] levels = minimum.andAbove().stream().map(LogLevel::name).toArray(String[]::new);
        return Transactions.run(database, c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT id, uuid, time, logger_name, level_name, node_id, message,"
                            + " metadata::text FROM log WHERE node_id = ? AND level_name = ANY(?) ORDER BY time, id")) {
                s.setLong(1, nodeId);
                s.setArray(2, c.createArrayOf("text", levels));
                List<LogRecord> records = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        records.add(new LogRecord(
                                r.getLong(1),
                                r.getObject(2, UUID.class),
                                r.getObject(3, OffsetDateTime.class),
                                r.getString(4),
                                LogLevel.of(r.getString(5)),
                                r.getLong(6),
                                r.getString(7),
                                JsonCodec.readObject(r.getString(8))));
                    }
                }
                return records;
            }
        });
    }
}
