package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import dev.cairn.storage.graph.LinkType;

/**
 * Compiles a {@link QuerySpec} to one SQL statement with bound parameters. Vertex {@code i}
 * is the alias {@code t<i>}, its link {@code e<i>}; ancestors and descendants are recursive
 * CTEs {@code r<i>(root, id)} computed with {@code UNION}, so each node is reached once per
 * root however many paths lead to it.
 */
final class SqlCompiler {

    private SqlCompiler() {}

    /** The statement that returns the query's rows. */
    public static CompiledQuery compile(QuerySpec spec) {
        return plan(spec).query();
    }

    /** The statement that counts the query's rows, in the database. */
    public static CompiledQuery compileCount(QuerySpec spec) {
        boolean plain = !spec.distinct() && !spec.aggregates() && spec.limit() == null && spec.offset() == null;
        if (plain) {
            SqlText sql = with(spec).sql("SELECT count(*)").append(fromWhere(spec, new SqlText()));
            return sql.toQuery();
        }
        return new SqlText()
                .sql("SELECT count(*) FROM (")
                .append(rows(spec, new ArrayList<>()))
                .sql(") AS q")
                .toQuery();
    }

    /**
     * The statement with how to read its columns, and whether the database should plan it with
     * the parameters' values each time (see {@link #needsCustomPlan(QuerySpec)}).
     */
    record Plan(CompiledQuery query, List<OutputField> outputs, boolean needsCustomPlan) {}

    static Plan plan(QuerySpec spec) {
        List<OutputField> outputs = new ArrayList<>();
        SqlText sql = rows(spec, outputs);
        return new Plan(sql.toQuery(), List.copyOf(outputs), needsCustomPlan(spec));
    }

    /**
     * Whether a generic plan (parameters unknown) would miss indexes: JSON paths and derived fields in
     * filters (expression and partial indexes), JSON paths in the order, and LIKE patterns, including node
     * types with their subtypes.
     */
    static boolean needsCustomPlan(QuerySpec spec) {
        for (Vertex v : spec.path()) {
            if (v.nodeType() != null && v.subclassing()) {
                return true;
            }
            if (usesPathsOrLike(v.filter(), v.entity().table()) || usesPathsOrLike(v.edgeFilter(), Table.LINK)) {
                return true;
            }
        }
        return spec.orderBy().stream().anyMatch(o -> o.field().contains("."));
    }

    private static boolean usesPathsOrLike(Filter filter, Table table) {
        return switch (filter) {
            case null -> false;
            case Filter.Condition c ->
                c.field().contains(".")
                        || c.operator() == Operator.LIKE
                        || c.operator() == Operator.ILIKE
                        || c.field().equals("attributes")
                        || c.field().equals("extras")
                        || table.derived().stream().anyMatch(d -> d.name().equals(c.field()));
            case Filter.And and -> and.filters().stream().anyMatch(f -> usesPathsOrLike(f, table));
            case Filter.Or or -> or.filters().stream().anyMatch(f -> usesPathsOrLike(f, table));
            case Filter.Not not -> usesPathsOrLike(not.filter(), table);
        };
    }

    private static SqlText rows(QuerySpec spec, List<OutputField> outputs) {
        SqlText sql = with(spec).sql(spec.distinct() ? "SELECT DISTINCT " : "SELECT ");
        List<Integer> groupKeys = new ArrayList<>();
        SqlText laterals = new SqlText();
        int column = 1;
        boolean first = true;
        for (int i = 0; i < spec.path().size(); i++) {
            Vertex v = spec.path().get(i);
            SharedDocuments from = SharedDocuments.of(spec, v, i, alias(spec, i));
            laterals.append(from.lateral());
            for (Projection p : v.projections()) {
                column = select(sql, first, from, v.tag(), v.entity().table(), p, column, outputs, groupKeys);
                first = false;
            }
            for (Projection p : v.edgeProjections()) {
                SharedDocuments link = SharedDocuments.none("e" + i);
                column = select(sql, first, link, v.edgeTag(), Table.LINK, p, column, outputs, groupKeys);
                first = false;
            }
        }
        sql.append(fromWhere(spec, laterals));
        if (spec.aggregates() && !groupKeys.isEmpty()) {
            sql.sql(" GROUP BY ")
                    .sql(String.join(
                            ", ", groupKeys.stream().map(String::valueOf).toList()));
        }
        orderBy(spec, outputs, sql);
        if (spec.limit() != null) {
            sql.sql(" LIMIT ").bind(spec.limit());
        }
        if (spec.offset() != null) {
            sql.sql(" OFFSET ").bind(spec.offset());
        }
        return sql;
    }

    private static int select(
            SqlText sql,
            boolean first,
            SharedDocuments from,
            String tag,
            Table table,
            Projection p,
            int column,
            List<OutputField> outputs,
            List<Integer> groupKeys) {
        sql.sql(first ? "" : ", ");
        if (p.field().equals(Projection.ALL)) {
            List<String> names = table.columns().stream()
                    .map(c -> from.row() + "." + c.name())
                    .toList();
            sql.sql(String.join(", ", names));
            outputs.add(new OutputField(tag, p.key(), ValueReader.forRow(table), column, names.size()));
            for (int k = 0; k < names.size(); k++) {
                groupKeys.add(column + k);
            }
            return column + names.size();
        }
        FieldRef field = FieldRef.resolve(table, "", p.field(), "");
        if (from.splits(p)) {
            sql.append(from.stringOrJson(field));
            outputs.add(new OutputField(tag, p.key(), ValueReader.STRING_OR_JSON, column, 2));
            return column + 2;
        }
        SqlText value = Expressions.cast(from.aliasOf(field), field, p.cast());
        ValueReader reader = p.cast() == null ? ValueReader.forColumn(field.kind()) : ValueReader.forCast(p.cast());
        if (p.aggregate() == null) {
            sql.append(value);
            groupKeys.add(column);
        } else {
            switch (p.aggregate()) {
                case COUNT -> {
                    sql.sql("count(").append(value).sql(")");
                    reader = ValueReader.LONG;
                }
                case MIN, MAX ->
                    sql.sql(p.aggregate().jsonName()).sql("(").append(value).sql(")");
                case SUM -> {
                    sql.sql("sum(").append(value).sql(")");
                    reader = ValueReader.NUMBER;
                }
                case AVG -> {
                    sql.sql("avg(").append(value).sql(")::float8");
                    reader = ValueReader.DOUBLE;
                }
            }
        }
        outputs.add(new OutputField(tag, p.key(), reader, column, 1));
        return column + 1;
    }

    /** The recursive CTEs of ancestor and descendant vertices. */
    private static SqlText with(QuerySpec spec) {
        SqlText sql = new SqlText();
        for (int i = 1; i < spec.path().size(); i++) {
            Vertex v = spec.path().get(i);
            if (!v.join().relationship().isRecursive()) {
                continue;
            }
            sql.sql(sql.isEmpty() ? "WITH RECURSIVE " : ", ");
            Join join = v.join();
            Vertex related = spec.vertex(join.tag());
            // descendants walk input -> output, ancestors output -> input
            boolean down = join.relationship() == Relationship.WITH_ANCESTORS;
            String from = down ? "input_id" : "output_id";
            String next = down ? "output_id" : "input_id";
            boolean depth = join.maxDepth() != null;
            String r = "r" + i;
            sql.sql(r)
                    .sql(depth ? "(root, id, depth) AS (SELECT s.id, l." : "(root, id) AS (SELECT s.id, l.")
                    .sql(next)
                    .sql(depth ? ", 1" : "")
                    .sql(" FROM ")
                    .sql(related.entity().table().sqlName())
                    .sql(" AS s JOIN link AS l ON l.")
                    .sql(from)
                    .sql(" = s.id AND l.type = ANY(")
                    .bind(linkTypes(join))
                    .sql(")");
            SqlText seed = vertexConditions("s", related);
            if (!seed.isEmpty()) {
                sql.sql(" WHERE ").append(seed);
            }
            sql.sql(" UNION SELECT w.root, l.")
                    .sql(next)
                    .sql(depth ? ", w.depth + 1" : "")
                    .sql(" FROM ")
                    .sql(r)
                    .sql(" AS w JOIN link AS l ON l.")
                    .sql(from)
                    .sql(" = w.id AND l.type = ANY(")
                    .bind(linkTypes(join))
                    .sql(")");
            if (depth) {
                sql.sql(" WHERE w.depth < ").bind((long) join.maxDepth());
            }
            sql.sql(")");
        }
        return sql.isEmpty() ? sql : sql.sql(" ");
    }

    private static CompiledQuery.ArrayParameter linkTypes(Join join) {
        return new CompiledQuery.ArrayParameter(
                "text",
                EnumSet.copyOf(join.walkedLinkTypes()).stream()
                        .map(LinkType::dbValue)
                        .map(Object.class::cast)
                        .toList());
    }

    private static SqlText fromWhere(QuerySpec spec, SqlText laterals) {
        SqlText sql = new SqlText()
                .sql(" FROM ")
                .sql(spec.path().getFirst().entity().table().sqlName())
                .sql(" AS t0");
        List<SqlText> conditions = new ArrayList<>();
        for (int i = 0; i < spec.path().size(); i++) {
            Vertex v = spec.path().get(i);
            if (i > 0) {
                join(spec, i, v, sql);
            }
            SqlText own = vertexConditions("t" + i, v);
            if (!own.isEmpty()) {
                conditions.add(own);
            }
            if (v.edgeFilter() != null) {
                conditions.add(Expressions.filter("e" + i, Table.LINK, v.edgeFilter()));
            }
        }
        sql.append(laterals);
        if (spec.after() != null) {
            Order order = spec.orderBy().getFirst();
            int edge = spec.indexOfEdge(order.tag());
            String alias = edge >= 0 ? "e" + edge : alias(spec, spec.indexOf(order.tag()));
            conditions.add(new SqlText()
                    .sql(alias)
                    .sql(order.descending() ? ".id < " : ".id > ")
                    .bind(spec.after()));
        }
        for (int k = 0; k < conditions.size(); k++) {
            sql.sql(k == 0 ? " WHERE " : " AND ").append(conditions.get(k));
        }
        return sql;
    }

    /** The node type restriction and the filter of one vertex, on the row under {@code alias}. */
    private static SqlText vertexConditions(String alias, Vertex v) {
        SqlText sql = new SqlText();
        if (v.nodeType() != null) {
            if (v.subclassing()) {
                sql.sql(alias).sql(".node_type LIKE ").bind(v.nodeType().replace("_", "\\_") + "%");
            } else {
                sql.sql(alias).sql(".node_type = ").bind(v.nodeType());
            }
        }
        if (v.filter() != null) {
            if (!sql.isEmpty()) {
                sql.sql(" AND ");
            }
            sql.append(Expressions.filter(alias, v.entity().table(), v.filter()));
        }
        return sql;
    }

    private static void join(QuerySpec spec, int i, Vertex v, SqlText sql) {
        Join join = v.join();
        int j = spec.indexOf(join.tag());
        Relationship.Rule rule =
                Relationship.rule(v.entity(), join.relationship()).orElseThrow();
        String t = "t" + i;
        String related = alias(spec, j);
        String table = v.entity().table().sqlName();
        switch (rule.shape()) {
            case LINK -> {
                boolean outputs = join.relationship() == Relationship.WITH_INCOMING;
                String e = "e" + i;
                sql.sql(" JOIN link AS ")
                        .sql(e)
                        .sql(" ON ")
                        .sql(e)
                        .sql(outputs ? ".input_id = " : ".output_id = ")
                        .sql(related)
                        .sql(".id JOIN node AS ")
                        .sql(t)
                        .sql(" ON ")
                        .sql(t)
                        .sql(".id = ")
                        .sql(e)
                        .sql(outputs ? ".output_id" : ".input_id");
            }
            case RECURSIVE -> {
                String c = "c" + i;
                if (join.maxDepth() != null) {
                    sql.sql(" JOIN (SELECT DISTINCT root, id FROM r")
                            .sql(String.valueOf(i))
                            .sql(") AS ")
                            .sql(c);
                } else {
                    sql.sql(" JOIN r").sql(String.valueOf(i)).sql(" AS ").sql(c);
                }
                sql.sql(" ON ").sql(c).sql(".root = ").sql(related).sql(".id");
                if (!idOnly(spec, i)) {
                    sql.sql(" JOIN node AS ")
                            .sql(t)
                            .sql(" ON ")
                            .sql(t)
                            .sql(".id = ")
                            .sql(c)
                            .sql(".id");
                }
            }
            case MEMBERSHIP -> {
                boolean nodes = v.entity() == EntityType.NODE;
                String m = "m" + i;
                sql.sql(" JOIN group_member AS ")
                        .sql(m)
                        .sql(" ON ")
                        .sql(m)
                        .sql(nodes ? ".group_id = " : ".node_id = ")
                        .sql(related)
                        .sql(".id JOIN ")
                        .sql(table)
                        .sql(" AS ")
                        .sql(t)
                        .sql(" ON ")
                        .sql(t)
                        .sql(".id = ")
                        .sql(m)
                        .sql(nodes ? ".node_id" : ".group_id");
            }
            case OWN_COLUMN ->
                sql.sql(" JOIN ")
                        .sql(table)
                        .sql(" AS ")
                        .sql(t)
                        .sql(" ON ")
                        .sql(t)
                        .sql(".")
                        .sql(rule.column())
                        .sql(" = ")
                        .sql(related)
                        .sql(".id");
            case RELATED_COLUMN ->
                sql.sql(" JOIN ")
                        .sql(table)
                        .sql(" AS ")
                        .sql(t)
                        .sql(" ON ")
                        .sql(t)
                        .sql(".id = ")
                        .sql(related)
                        .sql(".")
                        .sql(rule.column());
        }
    }

    /**
     * Whether the node table of an ancestor or descendant vertex can stay out of the join: the
     * walk gives the ids, and nothing else of those nodes is used.
     */
    static boolean idOnly(QuerySpec spec, int i) {
        Vertex v = spec.path().get(i);
        if (v.join() == null || !v.join().relationship().isRecursive() || v.nodeType() != null || v.filter() != null) {
            return false;
        }
        if (!v.projections().stream().allMatch(p -> p.field().equals("id") && p.cast() == null)) {
            return false;
        }
        if (spec.orderBy().stream()
                .anyMatch(o -> o.tag().equals(v.tag()) && !o.field().equals("id"))) {
            return false;
        }
        for (Vertex later : spec.path()) {
            if (later.join() != null
                    && later.join().tag().equals(v.tag())
                    && Relationship.rule(later.entity(), later.join().relationship())
                                    .orElseThrow()
                                    .shape()
                            == Relationship.Shape.RELATED_COLUMN) {
                return false;
            }
        }
        return true;
    }

    /** The alias whose {@code id} is vertex {@code i}'s id. */
    private static String alias(QuerySpec spec, int i) {
        return idOnly(spec, i) ? "c" + i : "t" + i;
    }

    private static void orderBy(QuerySpec spec, List<OutputField> outputs, SqlText sql) {
        for (int k = 0; k < spec.orderBy().size(); k++) {
            Order order = spec.orderBy().get(k);
            sql.sql(k == 0 ? " ORDER BY " : ", ");
            int edge = spec.indexOfEdge(order.tag());
            int i = edge >= 0 ? edge : spec.indexOf(order.tag());
            Vertex v = spec.path().get(i);
            // a projected key orders by its column number, which DISTINCT and GROUP BY need
            // (the same path bound twice is two different expressions to the planner)
            int position = edge >= 0
                    ? position(order.tag(), v.edgeProjections(), order, outputs)
                    : position(v.tag(), v.projections(), order, outputs);
            if (position > 0) {
                sql.sql(String.valueOf(position));
            } else if (edge >= 0) {
                sql.append(
                        Expressions.cast("e" + i, FieldRef.resolve(Table.LINK, "", order.field(), ""), order.cast()));
            } else {
                sql.append(Expressions.cast(
                        alias(spec, i), FieldRef.resolve(v.entity().table(), "", order.field(), ""), order.cast()));
            }
            sql.sql(order.descending() ? " DESC" : " ASC");
        }
    }

    private static int position(String tag, List<Projection> projections, Order order, List<OutputField> outputs) {
        List<OutputField> own =
                outputs.stream().filter(o -> o.tag().equals(tag)).toList();
        for (int k = 0; k < projections.size(); k++) {
            Projection p = projections.get(k);
            if (p.aggregate() == null && p.field().equals(order.field()) && p.cast() == order.cast()) {
                return own.get(k).column();
            }
        }
        return 0;
    }
}
