package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a {@link QuerySpec} to one SQL statement with bound parameters: the select list,
 * grouping, order and paging around the path's tables and conditions, which {@link FromWhere}
 * builds.
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
            SqlText sql = FromWhere.with(spec).sql("SELECT count(*)").append(FromWhere.clauses(spec, new SqlText()));
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
        return plan(spec, false);
    }

    /**
     * The statement as {@link #plan(QuerySpec)}; with {@code stringsAsText}, its JSON values at paths
     * come as text in which a string is its characters after {@link Expressions#STRING_TAG}.
     */
    static Plan plan(QuerySpec spec, boolean stringsAsText) {
        List<OutputField> outputs = new ArrayList<>();
        SqlText sql = rows(spec, outputs);
        if (stringsAsText && outputs.stream().anyMatch(SqlCompiler::mayBeString)) {
            sql = stringsAsText(sql, spec, outputs);
        }
        return new Plan(sql.toQuery(), List.copyOf(outputs), needsCustomPlan(spec));
    }

    /** A JSON value at a path, read as JSON: a whole document is an object, and a cast reads a value as its type. */
    private static boolean mayBeString(OutputField o) {
        return o.reader() == ValueReader.JSON && o.atJsonPath();
    }

    /**
     * The query as a sub-select whose JSON values at paths the outer select writes as tagged text
     * ({@link Expressions#taggedText}): PostgreSQL writes a string as JSON by escaping it character by
     * character, most of its work on long strings. The sub-select extracts each path once, and
     * {@code OFFSET 0} keeps the planner from pulling it up into the outer select, which would extract
     * a path once per mention. Other columns, whole documents among them, pass through as they are (a
     * compressed document read twice would be decompressed twice).
     */
    private static SqlText stringsAsText(SqlText rows, QuerySpec spec, List<OutputField> outputs) {
        OutputField last = outputs.getLast();
        int columns = last.column() + last.width() - 1;
        List<String> names = new ArrayList<>();
        List<String> selected = new ArrayList<>();
        for (int c = 1; c <= columns; c++) {
            names.add("c" + c);
            selected.add("q.c" + c);
        }
        outputs.stream()
                .filter(SqlCompiler::mayBeString)
                .forEach(o -> selected.set(o.column() - 1, Expressions.taggedText("q.c" + o.column())));
        return new SqlText()
                .sql("SELECT " + String.join(", ", selected) + " FROM (")
                .append(rows)
                .sql(spec.offset() == null ? " OFFSET 0" : "")
                .sql(") AS q(" + String.join(", ", names) + ")");
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
        SqlText sql = FromWhere.with(spec).sql(spec.distinct() ? "SELECT DISTINCT " : "SELECT ");
        List<Integer> groupKeys = new ArrayList<>();
        SqlText laterals = new SqlText();
        int column = 1;
        boolean first = true;
        for (int i = 0; i < spec.path().size(); i++) {
            Vertex v = spec.path().get(i);
            SharedDocuments from = SharedDocuments.of(v, i, FromWhere.alias(spec, i));
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
        sql.append(FromWhere.clauses(spec, laterals));
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
        if (!first) {
            sql.sql(", ");
        }
        if (p.field().equals(Projection.ALL)) {
            List<String> names = table.columns().stream()
                    .map(c -> from.row() + "." + c.name())
                    .toList();
            sql.sql(String.join(", ", names));
            outputs.add(new OutputField(tag, p.key(), ValueReader.forRow(table), column, names.size(), false));
            for (int k = 0; k < names.size(); k++) {
                groupKeys.add(column + k);
            }
            return column + names.size();
        }
        FieldRef field = FieldRef.resolve(table, "", p.field(), "");
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
        outputs.add(new OutputField(
                tag, p.key(), reader, column, 1, field.isJson() && !field.path().isEmpty()));
        return column + 1;
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
                        FromWhere.alias(spec, i),
                        FieldRef.resolve(v.entity().table(), "", order.field(), ""),
                        order.cast()));
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
