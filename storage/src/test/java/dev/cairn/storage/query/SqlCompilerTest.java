package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.LinkType;

class SqlCompilerTest {

    private static final String EVIL = "'; DROP TABLE node; --";

    @Test
    void userStringsAreOnlyParameters() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "n",
                        v -> v.where(Filter.or(
                                        Filter.field("label").eq(EVIL),
                                        Filter.field("extras." + EVIL).like(EVIL),
                                        Filter.field("attributes.a").hasKey(EVIL),
                                        Filter.field("attributes.b").contains(List.of(EVIL))))
                                .project("id", "attributes." + EVIL))
                .build();
        CompiledQuery q = SqlCompiler.compile(spec);
        assertFalse(q.sql().contains("DROP"), q.sql());
        assertFalse(q.sql().contains(";"), q.sql());
        assertTrue(q.parameters().contains(EVIL), q.parameters().toString());
        assertTrue(
                q.parameters().contains(JsonCodec.write(List.of(EVIL))),
                q.parameters().toString());
    }

    @Test
    void jsonPathsAreBoundAsKeyOrTextArray() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "s",
                        v -> v.where(Filter.field("attributes.cell.0.0").gt(10.0))
                                .project("attributes.kinds"))
                .build();
        CompiledQuery q = SqlCompiler.compile(spec);
        assertEquals(
                "SELECT t0.attributes -> ? FROM node AS t0 WHERE CASE WHEN jsonb_typeof(t0.attributes #> ?) ="
                        + " 'number' THEN (t0.attributes #> ?)::numeric END > ?::numeric",
                q.sql());
        assertEquals(
                List.of(
                        "kinds",
                        new CompiledQuery.ArrayParameter("text", List.of("cell", "0", "0")),
                        new CompiledQuery.ArrayParameter("text", List.of("cell", "0", "0")),
                        "10.0"),
                q.parameters());
    }

    @Test
    void descendantsAreARecursiveUnionWithLinkTypesBound() {
        QuerySpec spec = QueryBuilder.start()
                .node("root", v -> v.where(Filter.field("id").in(1, 2)).project("id"))
                .node("d", v -> v.withAncestors("root").project("id"))
                .build();
        CompiledQuery q = SqlCompiler.compile(spec);
        assertEquals(
                "WITH RECURSIVE r1(root, id) AS (SELECT s.id, l.output_id FROM node AS s JOIN link AS l"
                        + " ON l.input_id = s.id AND l.type = ANY(?) WHERE s.id = ANY(?) UNION SELECT w.root, l.output_id"
                        + " FROM r1 AS w JOIN link AS l ON l.input_id = w.id AND l.type = ANY(?)) SELECT t0.id, c1.id"
                        + " FROM node AS t0 JOIN r1 AS c1 ON c1.root = t0.id WHERE t0.id = ANY(?)",
                q.sql());
        assertEquals(
                new CompiledQuery.ArrayParameter("text", List.of("create", "input_calc")),
                q.parameters().get(0));
    }

    @Test
    void ancestorsWithDepthKeepDepthInTheWalkAndDropItAfter() {
        QuerySpec spec = QueryBuilder.start()
                .node("leaf", v -> v.where(Filter.field("id").eq(7)))
                .node(
                        "a",
                        v -> v.withDescendants("leaf")
                                .maxDepth(2)
                                .linkTypes(LinkType.CREATE, LinkType.RETURN)
                                .project("id"))
                .build();
        String sql = SqlCompiler.compile(spec).sql();
        assertTrue(sql.startsWith("WITH RECURSIVE r1(root, id, depth) AS (SELECT s.id, l.input_id, 1"), sql);
        assertTrue(
                sql.contains("UNION SELECT w.root, l.input_id, w.depth + 1 FROM r1 AS w JOIN link AS l ON"
                        + " l.output_id = w.id AND l.type = ANY(?) WHERE w.depth < ?)"),
                sql);
        assertTrue(sql.contains("JOIN (SELECT DISTINCT root, id FROM r1) AS c1 ON c1.root = t0.id"), sql);
        // ids alone come from the walk; anything else of the nodes joins the node table
        assertTrue(sql.contains("SELECT c1.id FROM"), sql);
        QuerySpec typed = QueryBuilder.start()
                .node("leaf", v -> v.where(Filter.field("id").eq(7)))
                .node("a", v -> v.withDescendants("leaf").project("id", "label"))
                .build();
        assertTrue(
                SqlCompiler.compile(typed).sql().endsWith("JOIN node AS t1 ON t1.id = c1.id WHERE t0.id = ?"),
                SqlCompiler.compile(typed).sql());
    }

    @Test
    void severalKeysOfOneDocumentReadItOnceARowAndFiltersKeepTheColumn() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "s",
                        v -> v.where(Filter.field("attributes.energy").lt(0.0))
                                .project(
                                        Projection.of("attributes.energy"),
                                        Projection.of("attributes.cell.0", Cast.FLOAT),
                                        Projection.of("extras.tag"),
                                        Projection.of("label")))
                .node("o", v -> v.withIncoming("s").project("attributes.a", "attributes.b"))
                .build();
        assertEquals(
                "SELECT d0.attributes -> ?, CASE WHEN jsonb_typeof(d0.attributes #> ?) = 'number' THEN"
                        + " (d0.attributes #> ?)::float8 END, t0.extras -> ?, t0.label, d1.attributes -> ?,"
                        + " d1.attributes -> ? FROM node AS t0 JOIN link AS e1 ON e1.input_id = t0.id JOIN node AS t1"
                        + " ON t1.id = e1.output_id"
                        + " CROSS JOIN LATERAL (SELECT t0.attributes || '{}'::jsonb AS attributes OFFSET 0) AS d0"
                        + " CROSS JOIN LATERAL (SELECT t1.attributes || '{}'::jsonb AS attributes OFFSET 0) AS d1"
                        + " WHERE CASE WHEN jsonb_typeof(t0.attributes -> ?) = 'number' THEN (t0.attributes -> ?)::numeric"
                        + " END < ?::numeric",
                SqlCompiler.compile(spec).sql());
        QuerySpec one = QueryBuilder.start()
                .node("s", v -> v.project("attributes.energy", "extras.tag", "id"))
                .build();
        assertEquals(
                "SELECT t0.attributes -> ?, t0.extras -> ?, t0.id FROM node AS t0",
                SqlCompiler.compile(one).sql());
    }

    @Test
    void aggregatesGroupByTheOtherProjectionsAndOrderByPosition() {
        QuerySpec spec = QueryBuilder.start()
                .node("n", v -> v.project(Projection.of("node_type"), Projection.count("id")))
                .orderBy(Order.asc("n", "node_type"))
                .build();
        assertEquals(
                "SELECT t0.node_type, count(t0.id) FROM node AS t0 GROUP BY 1 ORDER BY 1 ASC",
                SqlCompiler.compile(spec).sql());
    }

    @Test
    void countOfAPlainQueryIsOneCountStar() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "s",
                        v -> v.type("data.core.structure.StructureData.")
                                .where(Filter.field("attributes.sites").longer(32)))
                .build();
        CompiledQuery q = SqlCompiler.compileCount(spec);
        assertEquals(
                "SELECT count(*) FROM node AS t0 WHERE t0.node_type LIKE ? AND jsonb_array_length(CASE WHEN"
                        + " jsonb_typeof(t0.attributes -> ?) = 'array' THEN t0.attributes -> ? END) > ?",
                q.sql());
        assertEquals(List.of("data.core.structure.StructureData.%", "sites", "sites", 32L), q.parameters());
    }

    @Test
    void nodeTypeUnderscoresAreEscapedForLike() {
        QuerySpec spec =
                QueryBuilder.start().node("n", v -> v.type("data.my_plugin.")).build();
        assertEquals(
                "data.my\\_plugin.%", SqlCompiler.compile(spec).parameters().getFirst());
    }

    @Test
    void negationIsTwoValued() {
        QuerySpec spec = QueryBuilder.start()
                .node("n", v -> v.where(Filter.field("extras.x").not().eq(5)).project("id"))
                .build();
        assertEquals(
                "SELECT t0.id FROM node AS t0 WHERE NOT coalesce(CASE WHEN jsonb_typeof(t0.extras -> ?) = 'number'"
                        + " THEN (t0.extras -> ?)::numeric END = ?::numeric, false)",
                SqlCompiler.compile(spec).sql());
    }

    @Test
    void keysetPagingAddsAnIdBound() {
        QuerySpec spec = QueryBuilder.start()
                .node("n", v -> v.project("id"))
                .orderBy(Order.desc("n", "id"))
                .limit(10)
                .after(500)
                .build();
        CompiledQuery q = SqlCompiler.compile(spec);
        assertEquals("SELECT t0.id FROM node AS t0 WHERE t0.id < ? ORDER BY 1 DESC LIMIT ?", q.sql());
        assertEquals(List.of(500L, 10L), q.parameters());
    }
}
