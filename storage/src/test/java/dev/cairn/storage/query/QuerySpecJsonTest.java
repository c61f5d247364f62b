package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.graph.LinkType;

class QuerySpecJsonTest {

    private static QuerySpec everything() {
        return QueryBuilder.start()
                .node(
                        "s",
                        v -> v.type("data.core.structure.StructureData.")
                                .where(Filter.field("attributes.sites").longer(32))
                                .where(Filter.or(
                                        Filter.field("label").not().like("tmp%"),
                                        Filter.not(Filter.field("extras.x").eq(null))))
                                .where(Filter.field("attributes.kinds").contains(List.of(Map.of("name", "Ba"))))
                                .project(
                                        Projection.of("id"),
                                        Projection.of("attributes.cell.0.0", Cast.FLOAT),
                                        Projection.of("*")))
                .node(
                        "c",
                        v -> v.withOutgoing("s")
                                .exactType("process.calculation.calcjob.CalcJobNode.")
                                .edgeWhere(Filter.field("type").in("input_calc"))
                                .edgeProject("label"))
                .node(
                        "d",
                        v -> v.withAncestors("c")
                                .maxDepth(3)
                                .linkTypes(LinkType.CREATE, LinkType.RETURN)
                                .project(Projection.of("attributes.x", Cast.TEXT)))
                .group("g", v -> v.withNode("s").where(Filter.field("time").ge("2024-01-01T00:00:00Z")))
                .orderBy(Order.asc("s", "id"))
                .limit(10)
                .offset(5)
                .after(100)
                .build();
    }

    @Test
    void specsRoundTripThroughJson() {
        QuerySpec spec = everything();
        String json = spec.toJson();
        assertEquals(spec, QuerySpec.fromJson(json));
        assertEquals(json, QuerySpec.fromJson(json).toJson());
    }

    @Test
    void handWrittenJsonEqualsTheBuilderForm() {
        QuerySpec fromJson = QuerySpec.fromJson("""
            {"path": [
               {"tag": "s", "entity": "node", "node_type": "data.core.structure.StructureData.",
                "filters": {"attributes.sites": {"longer": 32}}, "project": ["id", {"attributes.cell.0.0": {"cast": "f"}}]},
               {"tag": "d", "entity": "node", "with_ancestors": "s", "max_depth": 2}],
             "order_by": [{"tag": "s", "field": "id", "order": "desc"}], "limit": 3}""");
        QuerySpec built = QueryBuilder.start()
                .node(
                        "s",
                        v -> v.type("data.core.structure.StructureData.")
                                .where(Filter.field("attributes.sites").longer(32))
                                .project(
                                        Projection.of("id"),
                                        Projection.of("attributes.cell.0.0").as(Cast.FLOAT)))
                .node("d", v -> v.withAncestors("s").maxDepth(2))
                .orderBy(Order.desc("s", "id"))
                .limit(3)
                .build();
        assertEquals(built, fromJson);
        assertEquals(SqlCompiler.compile(built), SqlCompiler.compile(fromJson));
    }

    @Test
    void severalKeysOfAFilterObjectAllHold() {
        QuerySpec spec = QuerySpec.fromJson("""
            {"path": [{"tag": "n", "entity": "node", "filters": {"label": "a", "id": {">": 1, "<": 9}}}]}""");
        Filter f = spec.path().getFirst().filter();
        assertEquals(
                new Filter.And(List.of(
                        Filter.field("label").eq("a"),
                        Filter.field("id").gt(1),
                        Filter.field("id").lt(9))),
                f);
    }

    @Test
    void everyOperatorOfTheJavaBuilderIsItsJsonForm() {
        Map<String, Filter> byJson = new LinkedHashMap<>();
        byJson.put("{\"label\": {\"!=\": \"a\"}}", Filter.field("label").ne("a"));
        byJson.put("{\"id\": {\"<=\": 3}}", Filter.field("id").le(3));
        byJson.put("{\"label\": {\"ilike\": \"A%\"}}", Filter.field("label").ilike("A%"));
        byJson.put(
                "{\"attributes.sites\": {\"of_length\": 2}}",
                Filter.field("attributes.sites").ofLength(2));
        byJson.put(
                "{\"attributes.sites\": {\"shorter\": 5}}",
                Filter.field("attributes.sites").shorter(5));
        byJson.put(
                "{\"attributes.cell\": {\"of_type\": \"array\"}}",
                Filter.field("attributes.cell").ofType("array"));
        byJson.put("{\"extras\": {\"has_key\": \"x\"}}", Filter.field("extras").hasKey("x"));
        byJson.forEach((json, built) -> {
            QuerySpec parsed = QuerySpec.fromJson(
                    "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"filters\": " + json + "}]}");
            assertEquals(built, parsed.path().getFirst().filter(), json);
        });
    }
}
