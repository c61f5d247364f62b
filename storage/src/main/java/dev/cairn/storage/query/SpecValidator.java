package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.cairn.storage.graph.LinkType;

/** Checks a spec against the schema before any SQL exists; every refusal names the item, its place and the choices. */
final class SpecValidator {

    private static final Pattern TAG = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern NODE_TYPE = Pattern.compile("(data|process)\\.([A-Za-z0-9_]+\\.)*");

    /**
     * Set while a spec of the JSON form is built: the form names stored columns and JSON paths only, as it
     * always has (it is what {@code POST /api/v1/query} takes), so derived fields stay unknown there.
     */
    private static final ThreadLocal<Boolean> JSON_FORM = ThreadLocal.withInitial(() -> false);

    private SpecValidator() {}

    /** Builds (and so validates) a spec as the JSON form names things. */
    static QuerySpec inJsonForm(Supplier<QuerySpec> build) {
        JSON_FORM.set(true);
        try {
            return build.get();
        } finally {
            JSON_FORM.remove();
        }
    }

    static boolean isJsonForm() {
        return JSON_FORM.get();
    }

    /** A derived field the spec names (in a filter, a projection or an order), if any. */
    static Optional<String> derivedField(QuerySpec spec) {
        List<String> fields = new ArrayList<>();
        for (Vertex v : spec.path()) {
            fieldsOf(v.filter(), fields);
            v.projections().forEach(p -> fields.add(p.field()));
            spec.orderBy().stream().filter(o -> o.tag().equals(v.tag())).forEach(o -> fields.add(o.field()));
            for (String field : fields) {
                if (v.entity().table().derived().stream().anyMatch(c -> c.name().equals(field))) {
                    return Optional.of(field);
                }
            }
            fields.clear();
        }
        return Optional.empty();
    }

    private static void fieldsOf(Filter filter, List<String> fields) {
        switch (filter) {
            case null -> {}
            case Filter.Condition c -> fields.add(c.field());
            case Filter.And and -> and.filters().forEach(f -> fieldsOf(f, fields));
            case Filter.Or or -> or.filters().forEach(f -> fieldsOf(f, fields));
            case Filter.Not not -> fieldsOf(not.filter(), fields);
        }
    }

    static void validate(
            List<Vertex> path, List<Order> orderBy, Long limit, Long offset, boolean distinct, Long after) {
        Set<String> tags = new HashSet<>();
        for (int i = 0; i < path.size(); i++) {
            Vertex v = path.get(i);
            String where = "path[" + i + "]";
            checkTag(v.tag(), where, tags);
            where = "vertex '" + v.tag() + "'";
            checkNodeType(v, where);
            Relationship.Shape shape = checkJoin(path, i, where);
            String entity = v.entity().jsonName();
            if (v.filter() != null) {
                FilterValidator.check(v.filter(), v.entity().table(), entity, where + " filters");
            }
            checkProjections(v.projections(), v.entity().table(), entity, where + " project");
            boolean edge = v.edgeFilter() != null || !v.edgeProjections().isEmpty();
            if (edge && shape != Relationship.Shape.LINK) {
                throw new InvalidQueryException(where + ": edge filters and projections apply to with_incoming and"
                        + " with_outgoing only (the link between two nodes); this vertex uses "
                        + (v.join() == null
                                ? "no relationship"
                                : v.join().relationship().jsonName())
                        + (shape == Relationship.Shape.RECURSIVE ? "; choose the links walked with link_types" : ""));
            }
            if (v.edgeFilter() != null) {
                FilterValidator.check(v.edgeFilter(), Table.LINK, "link", where + " edge_filters");
            }
            checkProjections(v.edgeProjections(), Table.LINK, "link", where + " edge_project");
        }
        boolean aggregates = path.stream()
                .anyMatch(v -> v.projections().stream().anyMatch(p -> p.aggregate() != null)
                        || v.edgeProjections().stream().anyMatch(p -> p.aggregate() != null));
        for (int i = 0; i < orderBy.size(); i++) {
            checkOrder(path, orderBy.get(i), "order_by[" + i + "]", distinct, aggregates);
        }
        if (limit != null && limit < 0) {
            throw new InvalidQueryException("limit must be 0 or more, was " + limit);
        }
        if (offset != null && offset < 0) {
            throw new InvalidQueryException("offset must be 0 or more, was " + offset);
        }
        if (after != null && (orderBy.size() != 1 || !orderBy.getFirst().field().equals("id"))) {
            throw new InvalidQueryException("after (keyset paging) needs the query ordered by one vertex's id alone,"
                    + " e.g. order_by [{tag, field: id}]; it is ordered by "
                    + orderBy.stream().map(o -> o.tag() + "." + o.field()).toList());
        }
        if (after != null && aggregates) {
            throw new InvalidQueryException("after (keyset paging) cannot page aggregated rows");
        }
    }

    private static void checkTag(String tag, String where, Set<String> tags) {
        if (tag == null || !TAG.matcher(tag).matches()) {
            throw new InvalidQueryException(
                    where + ": tag " + (tag == null ? "is missing" : "'" + tag + "' is not a name")
                            + "; a tag is letters, digits, _ and -, starting with a letter or _");
        }
        if (!tags.add(tag)) {
            throw new InvalidQueryException(where + ": tag '" + tag + "' is used twice; tags so far are " + tags);
        }
    }

    private static void checkNodeType(Vertex v, String where) {
        if (v.nodeType() == null) {
            return;
        }
        if (v.entity() != EntityType.NODE) {
            throw new InvalidQueryException(where + ": node_type '" + v.nodeType() + "' applies to node vertices only,"
                    + " this one is a " + v.entity().jsonName());
        }
        if (!NODE_TYPE.matcher(v.nodeType()).matches()) {
            throw new InvalidQueryException(
                    where + ": node_type '" + v.nodeType() + "' is not a node type or prefix;"
                            + " node types are dotted and end in '.', e.g. data.core.structure.StructureData. or process.calculation.");
        }
    }

    private static Relationship.Shape checkJoin(List<Vertex> path, int index, String where) {
        Vertex v = path.get(index);
        Join join = v.join();
        if (index == 0) {
            if (join != null) {
                throw new InvalidQueryException(where + ": the first vertex joins nothing, but it has "
                        + join.relationship().jsonName() + " '" + join.tag() + "'");
            }
            return null;
        }
        if (join == null) {
            throw new InvalidQueryException(where + ": needs a relationship to an earlier vertex; a "
                    + v.entity().jsonName() + " may use " + Relationship.allowedFor(v.entity()));
        }
        Vertex related = null;
        for (int j = 0; j < index; j++) {
            if (path.get(j).tag().equals(join.tag())) {
                related = path.get(j);
            }
        }
        if (related == null) {
            throw new InvalidQueryException(where + ": " + join.relationship().jsonName() + " names unknown tag '"
                    + join.tag() + "'; earlier tags are "
                    + path.subList(0, index).stream().map(Vertex::tag).toList());
        }
        Relationship.Rule rule = Relationship.rule(v.entity(), join.relationship())
                .orElseThrow(() -> new InvalidQueryException(where + ": a "
                        + v.entity().jsonName() + " cannot use "
                        + join.relationship().jsonName() + "; it may use " + Relationship.allowedFor(v.entity())));
        if (rule.related() != related.entity()) {
            throw new InvalidQueryException(where + ": " + join.relationship().jsonName() + " '" + join.tag()
                    + "' needs a " + rule.related().jsonName() + ", but '" + join.tag() + "' is a "
                    + related.entity().jsonName() + "; a " + v.entity().jsonName() + " may use "
                    + Relationship.allowedFor(v.entity()));
        }
        boolean recursive = join.relationship().isRecursive();
        if (join.maxDepth() != null && (!recursive || join.maxDepth() < 1)) {
            throw new InvalidQueryException(where + ": max_depth " + join.maxDepth()
                    + (recursive ? " must be 1 or more" : " applies to with_ancestors and with_descendants only"));
        }
        if (join.linkTypes() != null && (!recursive || join.linkTypes().isEmpty())) {
            throw new InvalidQueryException(
                    where + ": link_types "
                            + (recursive
                                    ? "must name at least one of " + linkTypeNames()
                                    : "apply to with_ancestors and with_descendants only; filter the edge's type for one link"));
        }
        return rule.shape();
    }

    static List<String> linkTypeNames() {
        return Arrays.stream(LinkType.values()).map(LinkType::dbValue).toList();
    }

    private static void checkProjections(List<Projection> projections, Table table, String entity, String where) {
        for (Projection p : projections) {
            String at = where + " '" + p.key() + "'";
            if (p.field().equals(Projection.ALL)) {
                if (p.cast() != null || p.aggregate() != null) {
                    throw new InvalidQueryException(at + ": * (the whole row) takes no cast and no aggregate;"
                            + " count a column instead, e.g. count(id)");
                }
                continue;
            }
            FieldRef field = FieldRef.resolve(table, entity, p.field(), at);
            if (p.cast() != null && !field.isJson()) {
                throw new InvalidQueryException(at + ": cast '" + p.cast().code() + "' applies to JSON values only; "
                        + field.column().name() + " is a " + field.kind().name().toLowerCase() + " column");
            }
            if (p.aggregate() != null) {
                checkAggregate(p, field, at);
            }
        }
    }

    private static void checkAggregate(Projection p, FieldRef field, String where) {
        Aggregate a = p.aggregate();
        if (a == Aggregate.COUNT) {
            return;
        }
        if (field.kind() == ColumnKind.UUID) {
            throw new InvalidQueryException(
                    where + ": " + a.jsonName() + " does not apply to uuids; count them instead");
        }
        boolean json = field.isJson() && (p.cast() == null || p.cast() == Cast.JSON);
        boolean numeric = field.kind() == ColumnKind.LONG || p.cast() == Cast.FLOAT || p.cast() == Cast.INTEGER;
        if ((a == Aggregate.SUM || a == Aggregate.AVG) && !numeric) {
            throw new InvalidQueryException(where + ": " + a.jsonName() + " needs numbers: a numeric column, or a"
                    + " JSON value cast to f (float) or i (integer)");
        }
        if (json) {
            throw new InvalidQueryException(where + ": " + a.jsonName() + " of a JSON value needs a cast, one of "
                    + Cast.codes().subList(0, 5));
        }
    }

    private static void checkOrder(List<Vertex> path, Order order, String where, boolean distinct, boolean aggregates) {
        Vertex v = path.stream()
                .filter(x -> x.tag().equals(order.tag()) || order.tag().equals(linkEdgeTag(path, x)))
                .findFirst()
                .orElseThrow(() -> new InvalidQueryException(where + ": unknown tag '" + order.tag() + "'; tags are "
                        + path.stream().map(Vertex::tag).toList() + " and the edges "
                        + path.stream()
                                .map(x -> linkEdgeTag(path, x))
                                .filter(t -> t != null)
                                .toList()));
        boolean edge = !v.tag().equals(order.tag());
        Table table = edge ? Table.LINK : v.entity().table();
        FieldRef field = FieldRef.resolve(table, edge ? "link" : v.entity().jsonName(), order.field(), where);
        if (order.cast() != null && !field.isJson()) {
            throw new InvalidQueryException(where + ": cast '" + order.cast().code() + "' applies to JSON values only");
        }
        if (distinct || aggregates) {
            boolean projected = (edge ? v.edgeProjections() : v.projections())
                    .stream()
                            .anyMatch(p -> p.aggregate() == null
                                    && p.field().equals(order.field())
                                    && p.cast() == order.cast());
            if (!projected) {
                throw new InvalidQueryException(where + ": a " + (distinct ? "distinct" : "grouped")
                        + " query can order only by what it projects" + (aggregates ? " as group keys" : "")
                        + "; project " + order.field()
                        + (order.cast() == null ? "" : " cast " + order.cast().code())
                        + " on '" + order.tag() + "' too");
            }
        }
    }

    /** The tag of a vertex's link to its related node ({@code a--b}), or null when it joins by no single link. */
    static String linkEdgeTag(List<Vertex> path, Vertex v) {
        if (v.join() == null) {
            return null;
        }
        return Relationship.rule(v.entity(), v.join().relationship())
                        .map(r -> r.shape() == Relationship.Shape.LINK)
                        .orElse(false)
                ? v.edgeTag()
                : null;
    }
}
