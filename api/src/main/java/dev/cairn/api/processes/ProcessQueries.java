package dev.cairn.api.processes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.ProcessRefs;
import dev.cairn.engine.Engine;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.StorageException;

/**
 * What the process endpoints read, in SQL on the graph's tables: process nodes (their state is
 * in their attributes), CALL links for callers and call trees, the log for reports. Each
 * request costs one to three statements.
 */
@Component
class ProcessQueries {

    /** The orders a list takes: newest first (the default), oldest first, or by the last change. */
    static final List<String> ORDERS = List.of("-ctime", "ctime", "-mtime", "mtime");

    private static final String SUMMARY = "n.id, n.uuid, n.process_type, n.node_type, n.label,"
            + " n.attributes ->> 'process_state', coalesce(n.attributes -> 'paused' = 'true'::jsonb, false),"
            + " n.attributes ->> 'exit_status', n.attributes ->> 'process_status', n.ctime, n.mtime, u.email, c.uuid";
    private static final String FROM = " FROM node n JOIN app_user u ON u.id = n.user_id"
            + " LEFT JOIN link cl ON cl.output_id = n.id AND cl.type IN ('call_calc', 'call_work')"
            + " LEFT JOIN node c ON c.id = cl.input_id";
    private static final String TREE = "WITH RECURSIVE tree(id, parent, depth) AS (SELECT ?::bigint, NULL::bigint, 0"
            + " UNION ALL SELECT l.output_id, l.input_id, t.depth + 1 FROM link l JOIN tree t ON l.input_id = t.id"
            + " WHERE l.type IN ('call_calc', 'call_work')) ";
    /** The most processes a call tree shows. */
    static final int MAX_TREE = 100_000;

    private final Engine engine;
    private final ProcessRefs refs;

    ProcessQueries(Engine engine, ProcessRefs refs) {
        this.engine = engine;
        this.refs = refs;
    }

    /** A page of the processes {@code filter} matches, in {@code order}, after {@code cursor}. */
    Page<ProcessSummary> list(ProcessFilter filter, String order, String cursor, int limit, boolean count) {
        if (!ORDERS.contains(order)) {
            throw new InvalidInputException("order '" + order + "' is not one of " + ORDERS);
        }
        boolean newestFirst = order.startsWith("-");
        boolean byMtime = order.endsWith("mtime");
        String column = byMtime ? "n.mtime" : "n.ctime";
        ProcessConditions where = ProcessConditions.of(filter, refs);
        Long total = count ? count(where) : null;
        if (cursor != null) {
            Cursor after = Cursor.decode(cursor, order);
            try {
                where.and(
                        "(" + column + ", n.id) " + (newestFirst ? "<" : ">") + " (?, ?)",
                        OffsetDateTime.parse((String) after.after().get(0)),
                        ((Number) after.after().get(1)).longValue());
            } catch (RuntimeException e) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor of this list");
            }
        }
        String direction = newestFirst ? " DESC" : " ASC";
        List<Row> rows = summaries(
                "SELECT " + SUMMARY + FROM + " WHERE " + where.where() + " ORDER BY " + column + direction + ", n.id"
                        + direction + " LIMIT ?",
                (c, s) -> s.setInt(where.bind(c, s, 1), limit + 1));
        String next = null;
        if (rows.size() > limit) {
            rows = rows.subList(0, limit);
            Row last = rows.getLast();
            OffsetDateTime at =
                    byMtime ? last.summary().mtime() : last.summary().ctime();
            next = new Cursor(order, List.of(at.toString(), last.id())).encode();
        }
        return new Page<>(rows.stream().map(Row::summary).toList(), next, total);
    }

    /** The ids of the processes {@code conditions} match, oldest first, at most {@code limit}. */
    List<Long> ids(ProcessConditions conditions, int limit) {
        List<Long> ids = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT n.id FROM node n WHERE " + conditions.where() + " ORDER BY n.ctime, n.id LIMIT ?")) {
            s.setInt(conditions.bind(c, s, 1), limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("selecting processes", e);
        }
        return ids;
    }

    /** The uuids of nodes, by id. */
    Map<Long, UUID> uuids(List<Long> ids) {
        Map<Long, UUID> uuids = new HashMap<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT id, uuid FROM node WHERE id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    uuids.put(rs.getLong(1), rs.getObject(2, UUID.class));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the uuids of processes", e);
        }
        return uuids;
    }

    private long count(ProcessConditions where) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM node n WHERE " + where.where())) {
            where.bind(c, s, 1);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new StorageException("counting processes", e);
        }
    }

    /** One process as lists show it. */
    ProcessSummary summary(long id) {
        List<Row> rows = summaries("SELECT " + SUMMARY + FROM + " WHERE n.id = ?", (c, s) -> s.setLong(1, id));
        if (rows.isEmpty()) {
            throw new NotFoundException("process " + id + " is gone");
        }
        return rows.getFirst().summary();
    }

    /** One process with its inputs, outputs, caller, called processes and how it ended: three statements. */
    ProcessDetail detail(long id) {
        ProcessSummary summary;
        Map<String, Object> attributes;
        String description;
        String computer;
        String cachedFrom;
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT " + SUMMARY + ", n.attributes::text, n.description,"
                        + " co.label, n.extras ->> '_cairn_cached_from'" + FROM
                        + " LEFT JOIN computer co ON co.id = n.computer_id WHERE n.id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException("process " + id + " is gone");
                }
                summary = summaryOf(rs);
                attributes = JsonCodec.readObject(rs.getString(14));
                description = rs.getString(15);
                computer = rs.getString(16);
                cachedFrom = rs.getString(17);
            }
        } catch (SQLException e) {
            throw new StorageException("reading process " + id, e);
        }
        Map<String, ProcessDetail.NodeRef> inputs = new LinkedHashMap<>();
        Map<String, ProcessDetail.NodeRef> outputs = new LinkedHashMap<>();
        links(id, inputs, outputs);
        List<ProcessSummary> called = summaries(
                        "SELECT " + SUMMARY + FROM + " WHERE cl.input_id = ? ORDER BY n.ctime, n.id",
                        (c, s) -> s.setLong(1, id))
                .stream()
                .map(Row::summary)
                .toList();
        ProcessDetail.Job job = "calcjob".equals(summary.kind())
                ? new ProcessDetail.Job(
                        (String) attributes.get("job_id"),
                        (String) attributes.get("remote_workdir"),
                        (String) attributes.get("scheduler_state"),
                        computer)
                : null;
        return new ProcessDetail(
                summary,
                description,
                inputs,
                outputs,
                called,
                exitCode(summary, (String) attributes.get("exit_message")),
                (String) attributes.get("exception"),
                job,
                cachedFrom == null ? null : UUID.fromString(cachedFrom));
    }

    private ProcessDetail.ExitCodeRef exitCode(ProcessSummary summary, String exitMessage) {
        if (summary.exitStatus() == null) {
            return null;
        }
        int status = summary.exitStatus();
        ExitCode declared = null;
        if (status == 0) {
            declared = ExitCode.OK;
        } else {
            try {
                declared = engine.plugins()
                        .get(summary.entryPoint())
                        .spec()
                        .exitCodes()
                        .get(status);
            } catch (UnknownProcessTypeException e) {
                // a process of a plugin this server does not load: its status alone
            }
        }
        String message = exitMessage != null && !exitMessage.isEmpty()
                ? exitMessage
                : declared == null ? "" : declared.message();
        return new ProcessDetail.ExitCodeRef(status, declared == null ? null : declared.label(), message);
    }

    /** The process's inputs and outputs, by port path. */
    private void links(long id, Map<String, ProcessDetail.NodeRef> inputs, Map<String, ProcessDetail.NodeRef> outputs) {
        String node =
                "m.uuid, m.id, m.node_type, CASE WHEN m.node_type IN ('data.core.int.Int.', 'data.core.float.Float.',"
                        + " 'data.core.str.Str.', 'data.core.bool.Bool.') THEN (m.attributes -> 'value')::text END";
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT true, l.label, " + node
                        + " FROM link l JOIN node m ON m.id = l.input_id WHERE l.output_id = ?"
                        + " AND l.type IN ('input_calc', 'input_work')"
                        + " UNION ALL SELECT false, l.label, " + node
                        + " FROM link l JOIN node m ON m.id = l.output_id WHERE l.input_id = ?"
                        + " AND l.type IN ('create', 'return') ORDER BY 1 DESC, 2")) {
            s.setLong(1, id);
            s.setLong(2, id);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String value = rs.getString(6);
                    ProcessDetail.NodeRef ref = new ProcessDetail.NodeRef(
                            rs.getObject(3, UUID.class),
                            rs.getLong(4),
                            rs.getString(5),
                            value == null ? null : JsonCodec.read(value));
                    (rs.getBoolean(1) ? inputs : outputs).put(ProcessSpec.portPath(rs.getString(2)), ref);
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the links of process " + id, e);
        }
    }

    /** The process and every process it called, directly or not, as a tree. */
    ProcessTreeNode tree(long root) {
        List<Row> rows = summaries(
                TREE + "SELECT " + SUMMARY + ", t.parent" + FROM + " JOIN tree t ON t.id = n.id"
                        + " ORDER BY t.depth, n.ctime, n.id LIMIT " + MAX_TREE,
                (c, s) -> s.setLong(1, root));
        Map<Long, ProcessTreeNode> byId = new HashMap<>();
        ProcessTreeNode top = null;
        for (Row row : rows) {
            ProcessTreeNode node = new ProcessTreeNode(row.summary());
            byId.put(row.id(), node);
            ProcessTreeNode parent = row.parent() == null ? null : byId.get(row.parent());
            if (parent != null) {
                parent.called().add(node);
            } else if (top == null) {
                top = node;
            }
        }
        if (top == null) {
            throw new NotFoundException("process " + root + " is gone");
        }
        return top;
    }

    /**
     * The log records of every process of the tree at {@code minimum} or above, oldest first, a
     * page of {@code limit} after {@code cursor}.
     */
    Page<ReportEntry> report(long root, LogLevel minimum, String cursor, int limit) {
        String[] levels = minimum.andAbove().stream().map(LogLevel::name).toArray(String[]::new);
        String order = "time";
        Object[] after = null;
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor, order);
            try {
                after = new Object[] {
                    OffsetDateTime.parse((String) c.after().get(0)),
                    ((Number) c.after().get(1)).longValue()
                };
            } catch (RuntimeException e) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor of this report");
            }
        }
        Object[] from = after;
        List<ReportEntry> entries = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(TREE + "SELECT g.id, g.time, g.level_name, n.uuid,"
                        + " n.process_type, g.message, n.id FROM log g JOIN tree t ON g.node_id = t.id JOIN node n"
                        + " ON n.id = g.node_id WHERE g.level_name = ANY(?)"
                        + (from == null ? "" : " AND (g.time, g.id) > (?, ?)") + " ORDER BY g.time, g.id LIMIT ?")) {
            int i = 1;
            s.setLong(i++, root);
            s.setArray(i++, c.createArrayOf("text", levels));
            if (from != null) {
                s.setObject(i++, from[0]);
                s.setObject(i++, from[1]);
            }
            s.setInt(i, limit + 1);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    entries.add(new ReportEntry(
                            rs.getObject(2, OffsetDateTime.class),
                            rs.getString(3),
                            rs.getObject(4, UUID.class),
                            rs.getLong(7),
                            rs.getString(5),
                            rs.getString(6)));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the report of process " + root, e);
        }
        String next = null;
        if (entries.size() > limit) {
            entries = entries.subList(0, limit);
            next = new Cursor(order, List.of(entries.getLast().time().toString(), ids.get(limit - 1))).encode();
        }
        return new Page<>(entries, next, null);
    }

    /** A summary row with its node id (and, in a tree, its caller's). */
    private record Row(long id, ProcessSummary summary, Long parent) {}

    @FunctionalInterface
    private interface Binder {
        void bind(Connection c, PreparedStatement s) throws SQLException;
    }

    /** The summary in columns 1 to 13 ({@link #SUMMARY}). */
    private static ProcessSummary summaryOf(ResultSet rs) throws SQLException {
        String exit = rs.getString(8);
        return new ProcessSummary(
                rs.getObject(2, UUID.class),
                rs.getLong(1),
                rs.getString(3),
                ProcessSummary.kind(rs.getString(4)),
                rs.getString(5),
                rs.getString(6),
                rs.getBoolean(7),
                exit == null ? null : Integer.valueOf(exit),
                rs.getString(9),
                rs.getObject(10, OffsetDateTime.class),
                rs.getObject(11, OffsetDateTime.class),
                rs.getString(12),
                rs.getObject(13, UUID.class));
    }

    private List<Row> summaries(String sql, Binder binder) {
        List<Row> rows = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(c, s);
            try (ResultSet rs = s.executeQuery()) {
                boolean withParent = rs.getMetaData().getColumnCount() > 13;
                while (rs.next()) {
                    Long parent = null;
                    if (withParent) {
                        long p = rs.getLong(14);
                        parent = rs.wasNull() ? null : p;
                    }
                    rows.add(new Row(rs.getLong(1), summaryOf(rs), parent));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading processes", e);
        }
        return rows;
    }
}
