package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import dev.cairn.storage.graph.LinkType;

/**
 * The WITH, FROM and WHERE clauses of a compiled query, which {@link SqlCompiler} puts its select
 * list, grouping and order around. Each vertex of the path is joined to the vertex it is related
 * to, under the alias {@code t<i>} (its link {@code e<i>}); ancestors and descendants are reached
 * through recursive CTEs {@code r<i>(root, id)} computed with {@code UNION}, so each node is
 * reached once per root however many paths lead to it.
 */
final class FromWhere {

    private FromWhere() {}

    /** The recursive CTEs of ancestor and descendant vertices. */
    static SqlText with(QuerySpec spec) {
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
        if (!sql.isEmpty()) {
            sql.sql(" ");
        }
        return sql;
    }

    private static CompiledQuery.ArrayParameter linkTypes(Join join) {
        return new CompiledQuery.ArrayParameter(
                "text",
                EnumSet.copyOf(join.walkedLinkTypes()).stream()
                        .map(LinkType::dbValue)
                        .map(Object.class::cast)
                        .toList());
    }

    /**
     * {@code FROM} the first vertex's table, the joins of the others, the {@code laterals} after
     * them, and {@code WHERE} every vertex's conditions and the keyset position.
     */
    static SqlText clauses(QuerySpec spec, SqlText laterals) {
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
                joinOn(sql, "link", e, e + (outputs ? ".input_id" : ".output_id"), related + ".id");
                joinOn(sql, "node", t, t + ".id", e + (outputs ? ".output_id" : ".input_id"));
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
                    joinOn(sql, "node", t, t + ".id", c + ".id");
                }
            }
            case MEMBERSHIP -> {
                boolean nodes = v.entity() == EntityType.NODE;
                String m = "m" + i;
                joinOn(sql, "group_member", m, m + (nodes ? ".group_id" : ".node_id"), related + ".id");
                joinOn(sql, table, t, t + ".id", m + (nodes ? ".node_id" : ".group_id"));
            }
            case OWN_COLUMN -> joinOn(sql, table, t, t + "." + rule.column(), related + ".id");
            case RELATED_COLUMN -> joinOn(sql, table, t, t + ".id", related + "." + rule.column());
        }
    }

    /** {@code JOIN table AS alias ON left = right}: the names are the compiler's own, never a user's. */
    private static void joinOn(SqlText sql, String table, String alias, String left, String right) {
        sql.sql(" JOIN ")
                .sql(table)
                .sql(" AS ")
                .sql(alias)
                .sql(" ON ")
                .sql(left)
                .sql(" = ")
                .sql(right);
    }

    /**
     * Whether the node table of an ancestor or descendant vertex can stay out of the join: the
     * walk gives the ids, and nothing else of those nodes is used.
     */
    private static boolean idOnly(QuerySpec spec, int i) {
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
    static String alias(QuerySpec spec, int i) {
        return idOnly(spec, i) ? "c" + i : "t" + i;
    }
}
