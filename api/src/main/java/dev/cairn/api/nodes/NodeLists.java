package dev.cairn.api.nodes;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.VertexBuilder;

/**
 * Node lists as queries of the query builder, one statement per page: every node, the nodes
 * linked to one node (with the links), or those one node reaches through its links (ancestors,
 * descendants); each filtered by a {@link NodeSelection}, with the owner's email from a join, and
 * paged by keyset. The count, when asked for, is a second statement.
 */
@Component
class NodeLists {

    /** Where a list's nodes come from. */
    sealed interface Scope {
        /** Every node. */
        record All() implements Scope {}

        /** The nodes the links into ({@code incoming}) or out of a node join it to. */
        record Linked(long nodeId, boolean incoming, Set<LinkType> linkTypes, String linkLabel) implements Scope {}

        /** The ancestors or descendants of a node, through links of these types, at most {@code depth} links away. */
        record Walked(long nodeId, boolean ancestors, Integer depth, Set<LinkType> linkTypes) implements Scope {}
    }

    /** What a list item is read from, in this order: the node's, then a link's, then its owner's. */
    private static final String[] NODE_FIELDS = {"uuid", "node_type", "process_type", "label", "ctime", "mtime", "id"};

    private static final int ID = 6;
    private static final String LINK_ORDER = "link";

    private final Storage storage;

    NodeLists(Storage storage) {
        this.storage = storage;
    }

    /** A page of every node, or of a node's ancestors or descendants. */
    Page<NodeSummary> nodes(
            Scope scope, NodeSelection selection, NodeOrder order, String cursor, int limit, boolean count) {
        if (scope instanceof Scope.Linked) {
            throw new IllegalArgumentException("links are listed by links()");
        }
        Filter after = cursor == null ? null : keyset(order, Cursor.decode(cursor, order.text()));
        QueryBuilder query = query(scope, selection, after);
        query.orderBy(order.orders("n").toArray(Order[]::new)).limit(limit + 1L);
        List<Row> rows = storage.query(query.build()).all();
        List<NodeSummary> items = new ArrayList<>(Math.min(rows.size(), limit));
        for (int i = 0; i < Math.min(rows.size(), limit); i++) {
            items.add(summary(rows.get(i), NODE_FIELDS.length));
        }
        String next = null;
        if (rows.size() > limit) {
            Row last = rows.get(limit - 1);
            List<Object> values = new ArrayList<>();
            for (NodeOrder.Key k : order.keys()) {
                values.add(cursorValue(last.get(position(k.field()))));
            }
            values.add(last.get(ID));
            next = new Cursor(order.text(), values).encode();
        }
        return new Page<>(items, next, count ? count(scope, selection) : null);
    }

    /** A page of a node's links, in the order they were made, each with the node at its other end. */
    Page<LinkedNode> links(Scope.Linked scope, NodeSelection selection, String cursor, int limit, boolean count) {
        QueryBuilder query = query(scope, selection, null);
        query.orderBy(Order.asc("r--n", "id")).limit(limit + 1L);
        if (cursor != null) {
            List<Object> after = Cursor.decode(cursor, LINK_ORDER).after();
            if (after.size() != 1 || !(after.getFirst() instanceof Long linkId)) {
                throw notOurs(cursor);
            }
            query.after(linkId);
        }
        List<Row> rows = storage.query(query.build()).all();
        List<LinkedNode> items = new ArrayList<>(Math.min(rows.size(), limit));
        int edge = NODE_FIELDS.length;
        for (int i = 0; i < Math.min(rows.size(), limit); i++) {
            Row row = rows.get(i);
            items.add(new LinkedNode((String) row.get(edge + 1), (String) row.get(edge + 2), summary(row, edge + 3)));
        }
        String next = rows.size() > limit
                ? new Cursor(LINK_ORDER, List.of(rows.get(limit - 1).get(edge))).encode()
                : null;
        return new Page<>(items, next, count ? count(scope, selection) : null);
    }

    private long count(Scope scope, NodeSelection selection) {
        return storage.query(query(scope, selection, null).build()).count();
    }

    private static QueryBuilder query(Scope scope, NodeSelection selection, Filter after) {
        QueryBuilder query = QueryBuilder.start();
        long root = switch (scope) {
            case Scope.All all -> -1;
            case Scope.Linked linked -> linked.nodeId();
            case Scope.Walked walked -> walked.nodeId();
        };
        if (root >= 0) {
            query.node("r", v -> v.where(Filter.field("id").eq(root)));
        }
        query.node("n", v -> {
            switch (scope) {
                case Scope.All all -> {}
                case Scope.Linked linked -> linked(v, linked);
                case Scope.Walked walked -> walked(v, walked);
            }
            if (selection.node() != null) {
                v.where(selection.node());
            }
            if (after != null) {
                v.where(after);
            }
            v.project(NODE_FIELDS);
        });
        query.user("u", v -> {
            v.withNode("n").project("email");
            if (selection.user() != null) {
                v.where(selection.user());
            }
        });
        return query;
    }

    private static void linked(VertexBuilder v, Scope.Linked linked) {
        // the links into r come from n: n's outgoing links
        if (linked.incoming()) {
            v.withOutgoing("r");
        } else {
            v.withIncoming("r");
        }
        if (linked.linkTypes() != null) {
            v.edgeWhere(Filter.field("type")
                    .in(linked.linkTypes().stream().map(LinkType::dbValue).toList()));
        }
        if (linked.linkLabel() != null) {
            v.edgeWhere(Filter.field("label").eq(linked.linkLabel()));
        }
        v.edgeProject("id", "type", "label");
    }

    private static void walked(VertexBuilder v, Scope.Walked walked) {
        // the ancestors of r are the nodes r descends from
        if (walked.ancestors()) {
            v.withDescendants("r");
        } else {
            v.withAncestors("r");
        }
        if (walked.depth() != null) {
            v.maxDepth(walked.depth());
        }
        if (walked.linkTypes() != null) {
            EnumSet<LinkType> types = EnumSet.copyOf(walked.linkTypes());
            LinkType first = types.iterator().next();
            types.remove(first);
            v.linkTypes(first, types.toArray(LinkType[]::new));
        }
    }

    private static NodeSummary summary(Row row, int userColumn) {
        return new NodeSummary(
                (UUID) row.get(0),
                ((Number) row.get(ID)).longValue(),
                (String) row.get(1),
                (String) row.get(2),
                (String) row.get(3),
                (OffsetDateTime) row.get(4),
                (OffsetDateTime) row.get(5),
                (String) row.get(userColumn));
    }

    private static int position(String field) {
        for (int i = 0; i < NODE_FIELDS.length; i++) {
            if (NODE_FIELDS[i].equals(field)) {
                return i;
            }
        }
        throw new IllegalStateException("the list does not read " + field);
    }

    /** A sort value as a cursor keeps it and a filter takes it: times as ISO text. */
    private static Object cursorValue(Object value) {
        return value instanceof OffsetDateTime t ? t.toString() : value;
    }

    /** The keyset condition of a cursor, checked as a query checks its filters. */
    private static Filter keyset(NodeOrder order, Cursor cursor) {
        try {
            Filter after = order.after(cursor.after());
            // checked by a spec of its own: a forged cursor fails here, as a bad cursor
            QueryBuilder.start().node("n", v -> v.where(after)).build();
            return after;
        } catch (InvalidInputException e) {
            throw notOurs(cursor.encode());
        }
    }

    private static InvalidInputException notOurs(String cursor) {
        return new InvalidInputException(
                "'" + cursor + "' is not a cursor this server made (pass back the 'next' of a page unchanged)");
    }
}
