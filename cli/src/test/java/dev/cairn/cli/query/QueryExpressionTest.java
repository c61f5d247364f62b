package dev.cairn.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

class QueryExpressionTest {

    private static String filters(String expression) {
        return JsonTrees.compact(QueryExpression.parse(expression, List.of("id"), null)
                .get("path")
                .get(0)
                .path("filters"));
    }

    @Test
    void aTypeAndConditionsBecomeOneVertexWithFiltersAllOfWhichHold() {
        assertEquals(
                "{\"and\":[{\"node_type\":{\"ilike\":\"%.Int.\"}},{\"attributes.value\":{\">\":3}},"
                        + "{\"label\":{\"like\":\"n%\"}}]}",
                filters("Int where attributes.value > 3 and label like 'n%'"));
        assertEquals(
                "{\"and\":[{\"node_type\":{\"like\":\"process.calculation.%\"}},{\"not\":{\"label\":{\"==\":\"a b\"}}}]}",
                filters("calculation WHERE label != \"a b\""));
        assertEquals("{\"and\":[{\"id\":{\"in\":[1,2]}}]}", filters("node where id in [1, 2]"));
        assertEquals("{\"and\":[{\"extras.tag\":{\"==\":\"x\"}}]}", filters("node where extras.tag = x"));
        assertTrue(QueryExpression.parse("node", List.of("id"), null)
                .get("path")
                .get(0)
                .path("filters")
                .isMissingNode());
    }

    @Test
    void theQueryIsOrderedByIdAndKeepsTheLimitAndProjections() {
        var query = QueryExpression.parse("Dict", List.of("uuid", "attributes.a"), 5L);
        assertEquals(
                "[\"uuid\",\"attributes.a\"]",
                JsonTrees.compact(query.get("path").get(0).get("project")));
        assertEquals("[{\"tag\":\"n\",\"field\":\"id\",\"order\":\"asc\"}]", JsonTrees.compact(query.get("order_by")));
        assertEquals(5, query.get("limit").asInt());
    }

    @Test
    void aBadExpressionIsAUsageErrorSayingWhatWasWrong() {
        for (var bad : List.of(
                List.of("Int wher x > 1", "expected 'where'"),
                List.of("Int where size > 1", "unknown field 'size'"),
                List.of("Int where label =", "needs a value"),
                List.of("Int where label = 'x", "not closed"),
                List.of("Int where label = x or y = 2", "expected 'and'"),
                List.of("Int where id in 3", "'in' takes a list"),
                List.of("data.core where id = 1", "no node type prefix"),
                List.of("3 where", "must begin with a node type"))) {
            CliException e = assertThrows(
                    CliException.class, () -> QueryExpression.parse(bad.get(0), List.of("id"), null), bad.get(0));
            assertEquals(ExitCodes.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains(bad.get(1)), e.getMessage());
        }
        assertThrows(CliException.class, () -> QueryExpression.parse("Int", List.of("size"), null));
    }
}
