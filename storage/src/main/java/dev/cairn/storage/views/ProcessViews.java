package dev.cairn.storage.views;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.query.Cast;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.Keyset;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.Projection;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.VertexBuilder;

/**
 * The processes of the graph as a server shows them. Lists, counts and the processes a control acts on
 * are queries of the query builder ({@link ProcessFilters} turns the criteria into its filters, on the
 * fields the partial index of live processes is built on); one process in full is one query and two
 * fixed statements (its links, what it called); a call tree and its report walk the CALL links in one
 * recursive statement each.
 */
public final class ProcessViews {

    /** The orders a list takes. */
    public enum Sort {
        NEWEST_FIRST("ctime", true),
        OLDEST_FIRST("ctime", false),
        LAST_CHANGED_FIRST("mtime", true),
        FIRST_CHANGED_FIRST("mtime", false);

        private final String field;
        private final boolean descending;

        Sort(String field, boolean descending) {
            this.field = field;
            this.descending = descending;
        }

        /** Whether it sorts by the last change ({@code mtime}) rather than the creation. */
        public boolean byMtime() {
            return field.equals("mtime");
        }

        /** The sort's keys, the id last so that the order is total. */
        List<Order> keys() {
            return descending
                    ? List.of(Order.desc("p", field), Order.desc("p", "id"))
                    : List.of(Order.asc("p", field), Order.asc("p", "id"));
        }
    }

    /** Where a page of a list ends: the sort time (ctime or mtime) and the id of its last process. */
    public record After(OffsetDateTime time, long id) {}

    /** A process of a call tree and the process that called it (null for the root). */
    public record TreeEntry(ProcessView process, Long callerId) {}

    /**
     * One log record of a call tree's report.
     *
     * @param id the record's id, which breaks ties of time in the report's order
     */
    public record ReportLine(
            long id,
            OffsetDateTime time,
            String level,
            UUID process,
            long processId,
            String processType,
            String message) {}

    /** Where a page of a report ends: the time and id of its last record. */
    public record ReportAfter(OffsetDateTime time, long id) {}

    /** What an ended process said: the message it ended with, and the stack trace if it excepted (null if none). */
    public record Ending(String exitMessage, String exception) {}

    private static final String CACHED_FROM = "extras." + CachingExtras.CACHED_FROM;
    private static final String EXIT_MESSAGE = "attributes.exit_message";
    private static final String EXCEPTION = "attributes.exception";
    private static final String[] SUMMARY = {
        "id", "uuid", "process_type", "node_type", "label", "process_state", "ctime", "mtime", "caller_uuid"
    };
    private static final Projection[] STATE = {
        Projection.of("attributes.paused", Cast.BOOLEAN),
        Projection.of("attributes.exit_status", Cast.INTEGER),
        Projection.of("attributes.process_status", Cast.TEXT)
    };
    private static final String TREE = "WITH RECURSIVE tree(id, parent, depth) AS (SELECT ?::bigint, NULL::bigint, 0"
            + " UNION ALL SELECT l.output_id, l.input_id, t.depth + 1 FROM link l JOIN tree t ON l.input_id = t.id"
            + " WHERE l.type IN ('call_calc', 'call_work')) ";

    private final Database database;

    /** The process views of this database. */
    public ProcessViews(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The processes {@code criteria} match in {@code order}, after {@code after} (null: from the first), at most {@code limit}. */
    public List<ProcessView> list(ProcessCriteria criteria, Sort order, After after, int limit) {
        return GraphQuery.on(database, listSpec(criteria, order, after, limit)).all().stream()
                .map(ProcessViews::summary)
                .toList();
    }

    /** The query of {@link #list}. */
    static QuerySpec listSpec(ProcessCriteria criteria, Sort order, After after, int limit) {
        QueryBuilder query = query(criteria, true, v -> {
            if (after != null) {
                String time = after.time().withOffsetSameInstant(ZoneOffset.UTC).toString();
                v.where(Keyset.after(order.keys(), List.of(time, after.id())));
            }
        });
        return query.orderBy(order.keys().toArray(Order[]::new)).limit(limit).build();
    }

    /** How many processes {@code criteria} match, counted in the database. */
    public long count(ProcessCriteria criteria) {
        return GraphQuery.on(
                        database, query(criteria, false, v -> v.project("id")).build())
                .count();
    }

    /** The ids of the processes both criteria match, oldest first, at most {@code limit}. */
    public List<Long> ids(ProcessCriteria criteria, ProcessCriteria also, int limit) {
        QueryBuilder query = query(criteria, false, v -> {
            Filter more = ProcessFilters.of(also);
            if (more != null) {
                v.where(more);
            }
            v.project("id");
        });
        query.orderBy(Sort.OLDEST_FIRST.keys().toArray(Order[]::new)).limit(limit);
        return GraphQuery.on(database, query.build()).all().stream()
                .map(r -> (Long) r.get(0))
                .toList();
    }

    /** One process as lists show it. */
    public Optional<ProcessView> summary(long id) {
        List<ProcessView> one = list(idIs(id), Sort.NEWEST_FIRST, null, 1);
        return one.stream().findFirst();
    }

    /** One process with its attributes, inputs, outputs and callees: three statements. */
    public Optional<ProcessDetailView> detail(long id) {
        QueryBuilder query = query(
                idIs(id),
                true,
                v -> v.project(
                        Projection.of("description"),
                        Projection.of("attributes"),
                        Projection.of("computer_label"),
                        Projection.of(CACHED_FROM, Cast.TEXT)));
        Optional<Row> found = GraphQuery.on(database, query.build()).first();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Row row = found.get();
        Map<String, ProcessDetailView.Linked> inputs = new LinkedHashMap<>();
        Map<String, ProcessDetailView.Linked> outputs = new LinkedHashMap<>();
        links(id, inputs, outputs);
        ProcessCriteria callees =
                new ProcessCriteria(null, null, null, null, null, null, null, null, null, null, id, null, null);
        String cachedFrom = (String) row.get("p", CACHED_FROM);
        @SuppressWarnings("unchecked")
        Map<String, Object> attributes = (Map<String, Object>) row.get("p", "attributes");
        return Optional.of(new ProcessDetailView(
                summary(row),
                (String) row.get("p", "description"),
                attributes,
                (String) row.get("p", "computer_label"),
                cachedFrom == null ? null : UUID.fromString(cachedFrom),
                inputs,
                outputs,
                list(callees, Sort.OLDEST_FIRST, null, Integer.MAX_VALUE)));
    }

    /** What each of the processes {@code ids} ended with, by id (one not found is left out): one query. */
    public Map<Long, Ending> endings(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        ProcessCriteria these = new ProcessCriteria(
                List.copyOf(ids), null, null, null, null, null, null, null, null, null, null, null, null);
        QueryBuilder query = query(
                these,
                false,
                v -> v.project("id")
                        .project(Projection.of(EXIT_MESSAGE, Cast.TEXT), Projection.of(EXCEPTION, Cast.TEXT)));
        Map<Long, Ending> endings = new HashMap<>();
        for (Row r : GraphQuery.on(database, query.build()).all()) {
            endings.put((Long) r.get("p", "id"), new Ending((String) r.get("p", EXIT_MESSAGE), (String)
                    r.get("p", EXCEPTION)));
        }
        return endings;
    }

    /**
     * The process and every process it called, directly or not, callers before what they called (by
     * depth, then creation), at most {@code max}: two statements.
     */
    public List<TreeEntry> tree(long root, int max) {
        Map<Long, Long> callers = new LinkedHashMap<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(TREE + "SELECT t.id, t.parent FROM tree t JOIN node n ON"
                        + " n.id = t.id ORDER BY t.depth, n.ctime, n.id LIMIT " + max)) {
            s.setLong(1, root);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    long parent = rs.getLong(2);
                    callers.put(id, rs.wasNull() ? null : parent);
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the call tree of process " + root, e);
        }
        Map<Long, ProcessView> processes = new HashMap<>();
        ProcessCriteria members = new ProcessCriteria(
                List.copyOf(callers.keySet()), null, null, null, null, null, null, null, null, null, null, null, null);
        for (ProcessView p : list(members, Sort.OLDEST_FIRST, null, callers.size())) {
            processes.put(p.id(), p);
        }
        List<TreeEntry> tree = new ArrayList<>(callers.size());
        callers.forEach((id, caller) -> {
            ProcessView p = processes.get(id);
            if (p != null) {
                tree.add(new TreeEntry(p, caller));
            }
        });
        return tree;
    }

    /**
     * The log records of every process of the tree of {@code root} at one of {@code levels}, oldest first,
     * after {@code after} (null: from the first), at most {@code limit}.
     */
    public List<ReportLine> report(long root, Collection<String> levels, ReportAfter after, int limit) {
        List<ReportLine> lines = new ArrayList<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(TREE + "SELECT g.id, g.time, g.level_name, n.uuid,"
                        + " n.process_type, g.message, n.id FROM log g JOIN tree t ON g.node_id = t.id JOIN node n"
                        + " ON n.id = g.node_id WHERE g.level_name = ANY(?)"
                        + (after == null ? "" : " AND (g.time, g.id) > (?, ?)") + " ORDER BY g.time, g.id LIMIT ?")) {
            int i = 1;
            s.setLong(i++, root);
            s.setArray(i++, c.createArrayOf("text", levels.toArray()));
            if (after != null) {
                s.setObject(i++, after.time());
                s.setObject(i++, after.id());
            }
            s.setInt(i, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    lines.add(new ReportLine(
                            rs.getLong(1),
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
        return lines;
    }

    /** The list query: the processes {@code criteria} match, their summaries when asked, and {@code more} on the process vertex. */
    private static QueryBuilder query(ProcessCriteria criteria, boolean summaries, Consumer<VertexBuilder> more) {
        QueryBuilder query = QueryBuilder.start().node("p", v -> {
            v.type("process.");
            Filter filter = ProcessFilters.of(criteria);
            if (filter != null) {
                v.where(filter);
            }
            if (summaries) {
                v.project(SUMMARY).project(STATE);
            }
            more.accept(v);
        });
        if (criteria.callerId() != null) {
            // the callees of one process come from its CALL links, found by the link's input
            query.node(
                    "caller",
                    v -> v.withOutgoing("p")
                            .where(Filter.field("id").eq(criteria.callerId()))
                            .edgeWhere(Filter.field("type").in("call_calc", "call_work")));
        }
        if (criteria.group() != null) {
            query.group(
                    "g",
                    v -> v.withNode("p")
                            .where(Filter.and(
                                    Filter.field("label").eq(criteria.group()),
                                    Filter.field("type_string").eq("core"))));
        }
        if (summaries) {
            query.user("u", v -> v.withNode("p").project("email"));
        }
        return query;
    }

    private static ProcessCriteria idIs(long id) {
        return new ProcessCriteria(List.of(id), null, null, null, null, null, null, null, null, null, null, null, null);
    }

    private static ProcessView summary(Row r) {
        Long exit = (Long) r.get("p", "attributes.exit_status");
        return new ProcessView(
                (Long) r.get("p", "id"),
                (UUID) r.get("p", "uuid"),
                (String) r.get("p", "process_type"),
                (String) r.get("p", "node_type"),
                (String) r.get("p", "label"),
                (String) r.get("p", "process_state"),
                Boolean.TRUE.equals(r.get("p", "attributes.paused")),
                exit == null ? null : exit.intValue(),
                (String) r.get("p", "attributes.process_status"),
                (OffsetDateTime) r.get("p", "ctime"),
                (OffsetDateTime) r.get("p", "mtime"),
                (String) r.get("u", "email"),
                (UUID) r.get("p", "caller_uuid"));
    }

    /** The process's inputs and outputs, by link label. */
    private void links(
            long id, Map<String, ProcessDetailView.Linked> inputs, Map<String, ProcessDetailView.Linked> outputs) {
        String node =
                "m.uuid, m.id, m.node_type, CASE WHEN m.node_type IN ('data.core.int.Int.', 'data.core.float.Float.',"
                        + " 'data.core.str.Str.', 'data.core.bool.Bool.') THEN (m.attributes -> 'value')::text END";
        try (Connection c = database.connection();
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
                    ProcessDetailView.Linked linked = new ProcessDetailView.Linked(
                            rs.getObject(3, UUID.class),
                            rs.getLong(4),
                            rs.getString(5),
                            value == null ? null : JsonCodec.read(value));
                    (rs.getBoolean(1) ? inputs : outputs).put(rs.getString(2), linked);
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the links of process " + id, e);
        }
    }
}
