package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;

/**
 * The JSON form of a {@link QuerySpec}:
 * {@snippet lang=json :
 * {"path": [
 *    {"tag": "s", "entity": "node", "node_type": "data.core.structure.StructureData.",
 *     "filters": {"attributes.sites": {"longer": 32}}, "project": ["id", {"field": "attributes.cell.0.0", "cast": "f"}]},
 *    {"tag": "c", "entity": "node", "with_incoming": "s", "edge_filters": {"type": "input_calc"}, "edge_project": ["label"]},
 *    {"tag": "d", "entity": "node", "with_ancestors": "c", "max_depth": 4, "link_types": ["create", "input_calc"]}],
 *  "order_by": [{"tag": "s", "field": "id", "order": "desc"}], "limit": 10, "offset": 0, "distinct": false}
 * }
 * Filters are {@code {field: value}} (equality), {@code {field: {op: value, ...}}}, and
 * {@code {"and": [...]}}, {@code {"or": [...]}}, {@code {"not": {...}}}; several keys in one
 * object must all hold.
 */
final class SpecJson {

    private static final List<String> TOP_KEYS = List.of("path", "order_by", "limit", "offset", "distinct", "after");
    private static final List<String> VERTEX_KEYS = List.of(
            "tag",
            "entity",
            "node_type",
            "subclassing",
            "filters",
            "project",
            "edge_filters",
            "edge_project",
            "max_depth",
            "link_types");
    private static final List<String> PROJECTION_KEYS = List.of("field", "cast", "func");
    private static final List<String> ORDER_KEYS = List.of("tag", "field", "order", "cast");
    private static final List<String> COMBINATORS = List.of("and", "or", "not", "~and", "!and", "~or", "!or");

    private SpecJson() {}

    static QuerySpec read(String json) {
        Object root;
        try {
            root = JsonCodec.read(json);
        } catch (InvalidInputException e) {
            throw new InvalidQueryException("the query is not valid JSON: " + e.getMessage(), e);
        }
        Map<String, Object> top = object(root, "the query");
        checkKeys(top, TOP_KEYS, "the query");
        List<Object> pathJson = list(top.get("path"), "path");
        List<Vertex> path = new ArrayList<>();
        for (int i = 0; i < pathJson.size(); i++) {
            path.add(vertex(object(pathJson.get(i), "path[" + i + "]"), "path[" + i + "]"));
        }
        List<Order> orderBy = new ArrayList<>();
        if (top.get("order_by") != null) {
            List<Object> orders = list(top.get("order_by"), "order_by");
            for (int i = 0; i < orders.size(); i++) {
                orderBy.add(order(object(orders.get(i), "order_by[" + i + "]"), "order_by[" + i + "]"));
            }
        }
        Long limit = optionalLong(top, "limit", "the query");
        Long offset = optionalLong(top, "offset", "the query");
        boolean distinct = bool(top, "distinct", false, "the query");
        Long after = optionalLong(top, "after", "the query");
        return SpecValidator.inJsonForm(() -> new QuerySpec(path, orderBy, limit, offset, distinct, after));
    }

    private static Vertex vertex(Map<String, Object> json, String where) {
        Join join = null;
        List<String> keys = new ArrayList<>(VERTEX_KEYS);
        keys.addAll(Relationship.jsonNames());
        for (String key : json.keySet()) {
            var relationship = Relationship.fromJsonName(key);
            if (relationship.isEmpty()) {
                continue;
            }
            if (join != null) {
                throw new InvalidQueryException(where + ": two relationships, "
                        + join.relationship().jsonName() + " and " + key + "; a vertex joins one earlier vertex");
            }
            join = Join.of(relationship.get(), string(json.get(key), where + " " + key));
        }
        checkKeys(json, keys, where);
        Object tag = json.get("tag");
        if (tag != null && !(tag instanceof String)) {
            throw new InvalidQueryException(where + ": tag must be a string, got " + tag);
        }
        where = tag == null ? where : where + " (tag '" + tag + "')";
        EntityType entity = EntityType.fromJsonName(string(json.get("entity"), where + " entity"), where);
        Integer maxDepth = null;
        Set<LinkType> linkTypes = null;
        if (json.get("max_depth") != null) {
            maxDepth = Math.toIntExact(longValue(json.get("max_depth"), where + " max_depth"));
        }
        if (json.get("link_types") != null) {
            linkTypes = EnumSet.noneOf(LinkType.class);
            for (Object name : list(json.get("link_types"), where + " link_types")) {
                linkTypes.add(linkType(string(name, where + " link_types"), where + " link_types"));
            }
        }
        if (join != null && (maxDepth != null || linkTypes != null)) {
            join = new Join(join.relationship(), join.tag(), maxDepth, linkTypes);
        } else if (maxDepth != null || linkTypes != null) {
            throw new InvalidQueryException(
                    where + ": max_depth and link_types go with with_ancestors or with_descendants");
        }
        return new Vertex(
                (String) tag,
                entity,
                optionalString(json, "node_type", where),
                bool(json, "subclassing", true, where),
                join,
                filter(json.get("filters"), where + " filters"),
                projections(json.get("project"), where + " project"),
                filter(json.get("edge_filters"), where + " edge_filters"),
                projections(json.get("edge_project"), where + " edge_project"));
    }

    private static LinkType linkType(String name, String where) {
        for (LinkType t : LinkType.values()) {
            if (t.dbValue().equals(name)) {
                return t;
            }
        }
        throw new InvalidQueryException(
                where + ": unknown link type '" + name + "'; link types are " + SpecValidator.linkTypeNames());
    }

    static Filter filter(Object json, String where) {
        if (json == null) {
            return null;
        }
        Map<String, Object> map = object(json, where);
        if (map.isEmpty()) {
            return null;
        }
        List<Filter> all = new ArrayList<>();
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String key = e.getKey();
            String at = where + " '" + key + "'";
            if (COMBINATORS.contains(key)) {
                boolean negated = key.startsWith("~") || key.startsWith("!");
                String bare = negated ? key.substring(1) : key;
                Filter f;
                if (bare.equals("not")) {
                    f = new Filter.Not(required(filter(e.getValue(), at), at));
                } else {
                    List<Filter> parts = new ArrayList<>();
                    List<Object> items = list(e.getValue(), at);
                    for (int i = 0; i < items.size(); i++) {
                        parts.add(required(filter(items.get(i), at + "[" + i + "]"), at + "[" + i + "]"));
                    }
                    f = bare.equals("and") ? new Filter.And(parts) : new Filter.Or(parts);
                }
                all.add(negated ? new Filter.Not(f) : f);
            } else if (e.getValue() instanceof Map<?, ?> ops) {
                if (ops.isEmpty()) {
                    throw new InvalidQueryException(
                            at + ": no operator; write {field: {op: value}}, operators are " + Operator.symbols());
                }
                for (Map.Entry<?, ?> op : ops.entrySet()) {
                    Operator.Parsed parsed = Operator.parse((String) op.getKey(), at);
                    all.add(new Filter.Condition(key, parsed.operator(), parsed.negated(), op.getValue()));
                }
            } else {
                all.add(new Filter.Condition(key, Operator.EQ, false, e.getValue()));
            }
        }
        return all.size() == 1 ? all.getFirst() : new Filter.And(all);
    }

    private static Filter required(Filter f, String where) {
        if (f == null) {
            throw new InvalidQueryException(where + ": an empty filter");
        }
        return f;
    }

    private static List<Projection> projections(Object json, String where) {
        if (json == null) {
            return List.of();
        }
        List<Object> items = json instanceof String s ? List.of(s) : list(json, where);
        List<Projection> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String at = where + "[" + i + "]";
            Object item = items.get(i);
            if (item instanceof String field) {
                out.add(Projection.of(field));
                continue;
            }
            Map<String, Object> map = object(item, at);
            if (!map.containsKey("field") && map.size() == 1) {
                // the short form {"attributes.x": {"cast": "f"}}
                var only = map.entrySet().iterator().next();
                Map<String, Object> options = new LinkedHashMap<>(object(only.getValue(), at));
                options.put("field", only.getKey());
                map = options;
            }
            checkKeys(map, PROJECTION_KEYS, at);
            String field = string(map.get("field"), at + " field");
            Cast cast = map.get("cast") == null ? null : Cast.fromCode(string(map.get("cast"), at + " cast"), at);
            Aggregate func =
                    map.get("func") == null ? null : Aggregate.fromJsonName(string(map.get("func"), at + " func"), at);
            out.add(new Projection(field, cast, func));
        }
        return out;
    }

    private static Order order(Map<String, Object> json, String where) {
        checkKeys(json, ORDER_KEYS, where);
        String direction = json.get("order") == null ? "asc" : string(json.get("order"), where + " order");
        if (!direction.equals("asc") && !direction.equals("desc")) {
            throw new InvalidQueryException(where + ": order '" + direction + "' is neither asc nor desc");
        }
        Cast cast = json.get("cast") == null ? null : Cast.fromCode(string(json.get("cast"), where + " cast"), where);
        return new Order(
                string(json.get("tag"), where + " tag"),
                string(json.get("field"), where + " field"),
                cast,
                direction.equals("desc"));
    }

    static String write(QuerySpec spec) {
        SpecValidator.derivedField(spec).ifPresent(field -> {
            throw new InvalidQueryException(
                    "the query uses the derived field '" + field + "', which the JSON form does not have");
        });
        Map<String, Object> top = new LinkedHashMap<>();
        List<Object> path = new ArrayList<>();
        for (Vertex v : spec.path()) {
            path.add(vertex(v));
        }
        top.put("path", path);
        if (!spec.orderBy().isEmpty()) {
            List<Object> orders = new ArrayList<>();
            for (Order o : spec.orderBy()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("tag", o.tag());
                m.put("field", o.field());
                m.put("order", o.descending() ? "desc" : "asc");
                if (o.cast() != null) {
                    m.put("cast", o.cast().code());
                }
                orders.add(m);
            }
            top.put("order_by", orders);
        }
        putIfSet(top, "limit", spec.limit());
        putIfSet(top, "offset", spec.offset());
        if (spec.distinct()) {
            top.put("distinct", true);
        }
        putIfSet(top, "after", spec.after());
        return JsonCodec.write(top);
    }

    private static Map<String, Object> vertex(Vertex v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tag", v.tag());
        m.put("entity", v.entity().jsonName());
        putIfSet(m, "node_type", v.nodeType());
        if (!v.subclassing()) {
            m.put("subclassing", false);
        }
        if (v.join() != null) {
            m.put(v.join().relationship().jsonName(), v.join().tag());
            putIfSet(m, "max_depth", v.join().maxDepth());
            if (v.join().linkTypes() != null) {
                m.put(
                        "link_types",
                        EnumSet.copyOf(v.join().linkTypes()).stream()
                                .map(LinkType::dbValue)
                                .toList());
            }
        }
        putIfSet(m, "filters", v.filter() == null ? null : filter(v.filter()));
        if (!v.projections().isEmpty()) {
            m.put("project", projections(v.projections()));
        }
        putIfSet(m, "edge_filters", v.edgeFilter() == null ? null : filter(v.edgeFilter()));
        if (!v.edgeProjections().isEmpty()) {
            m.put("edge_project", projections(v.edgeProjections()));
        }
        return m;
    }

    private static Map<String, Object> filter(Filter f) {
        Map<String, Object> m = new LinkedHashMap<>();
        switch (f) {
            case Filter.Condition c ->
                m.put(
                        c.field(),
                        singleton((c.negated() ? "!" : "") + c.operator().symbol(), c.value()));
            case Filter.And and ->
                m.put("and", and.filters().stream().map(SpecJson::filter).toList());
            case Filter.Or or ->
                m.put("or", or.filters().stream().map(SpecJson::filter).toList());
            case Filter.Not not -> m.put("not", filter(not.filter()));
        }
        return m;
    }

    private static Map<String, Object> singleton(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        return m;
    }

    private static List<Object> projections(List<Projection> projections) {
        List<Object> out = new ArrayList<>();
        for (Projection p : projections) {
            if (p.cast() == null && p.aggregate() == null) {
                out.add(p.field());
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("field", p.field());
            if (p.cast() != null) {
                m.put("cast", p.cast().code());
            }
            if (p.aggregate() != null) {
                m.put("func", p.aggregate().jsonName());
            }
            out.add(m);
        }
        return out;
    }

    private static void putIfSet(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }

    private static void checkKeys(Map<String, Object> json, List<String> valid, String where) {
        for (String key : json.keySet()) {
            if (!valid.contains(key)) {
                throw new InvalidQueryException(where + ": unknown key '" + key + "'; keys are " + valid);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object json, String where) {
        if (json instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new InvalidQueryException(where + ": needs a JSON object, got " + describe(json));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object json, String where) {
        if (json instanceof List<?> list) {
            return (List<Object>) list;
        }
        throw new InvalidQueryException(where + ": needs a JSON array, got " + describe(json));
    }

    private static String string(Object json, String where) {
        if (json instanceof String s) {
            return s;
        }
        throw new InvalidQueryException(where + ": needs a string, got " + describe(json));
    }

    private static String optionalString(Map<String, Object> json, String key, String where) {
        return json.get(key) == null ? null : string(json.get(key), where + " " + key);
    }

    private static long longValue(Object json, String where) {
        if (json instanceof Long l) {
            return l;
        }
        throw new InvalidQueryException(where + ": needs an integer, got " + describe(json));
    }

    private static Long optionalLong(Map<String, Object> json, String key, String where) {
        return json.get(key) == null ? null : longValue(json.get(key), where + " " + key);
    }

    private static boolean bool(Map<String, Object> json, String key, boolean fallback, String where) {
        Object value = json.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        throw new InvalidQueryException(where + " " + key + ": needs true or false, got " + describe(value));
    }

    private static String describe(Object json) {
        return json == null ? "null" : json instanceof String s ? "'" + s + "'" : JsonCodec.write(json);
    }
}
