package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Operator;

/** The URL filter language: each operator, values typed by their field, and refusals that name the valid choices. */
class NodeFiltersTest {

    static Filter.Condition c(String text) {
        return NodeFilters.condition(text);
    }

    static Filter.Condition expected(String field, Operator op, boolean negated, Object value) {
        return new Filter.Condition(field, op, negated, value);
    }

    @Test
    void symbolsAndNamedOperators() {
        assertEquals(expected("label", Operator.EQ, false, "x"), c("label=x"));
        assertEquals(expected("label", Operator.EQ, true, "x"), c("label!=x"));
        assertEquals(expected("attributes.v", Operator.GE, false, 3L), c("attributes.v>=3"));
        assertEquals(expected("attributes.v", Operator.LT, false, 2.5), c("attributes.v<2.5"));
        assertEquals(expected("label", Operator.LIKE, false, "a%"), c("label~a%"));
        assertEquals(expected("label", Operator.ILIKE, true, "a%"), c("label!~~a%"));
        assertEquals(expected("attributes.v", Operator.IN, false, List.of(1L, 2L)), c("attributes.v=in=(1,2)"));
        assertEquals(expected("attributes.v", Operator.IN, true, List.of(1L, "a")), c("attributes.v=notin=[1,\"a\"]"));
        assertEquals(expected("attributes.v", Operator.IN, true, List.of(1L)), c("attributes.v=!in=1"));
        assertEquals(expected("attributes", Operator.HAS_KEY, false, "cell"), c("attributes=has_key=cell"));
        assertEquals(expected("attributes.s", Operator.LONGER, false, 4L), c("attributes.s=longer=4"));
        assertEquals(expected("extras.t", Operator.CONTAINS, false, Map.of("a", 1L)), c("extras.t=contains={\"a\":1}"));
    }

    @Test
    void valuesAreTypedByTheirField() {
        assertEquals("123", c("label=123").value());
        assertEquals("a b", c("label=\"a b\"").value());
        assertEquals(123L, c("extras.n=123").value());
        assertEquals("123", c("extras.n=\"123\"").value());
        assertEquals(true, c("extras.b=true").value());
        assertEquals("word", c("extras.w=word").value());
        assertEquals("2024-05-01T00:00Z", c("ctime>=2024-05-01").value());
        assertEquals("2024-05-01T12:00Z", c("ctime>=2024-05-01T12:00").value());
        // a '+' that URL decoding turned into a space
        assertEquals("2024-05-01T12:00+02:00", c("ctime<2024-05-01T12:00 02:00").value());
        assertEquals(
                "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",
                c("uuid=0190C1A2-5B1E-7C3D-9F00-2B8E4D6A1C55").value());
    }

    @Test
    void theUserFilterGoesToTheUsersEmail() {
        NodeSelection s = NodeFilters.parse(List.of("user=a@b.c", "label=x"), null, null);
        assertEquals(new Filter.Condition("email", Operator.EQ, false, "a@b.c"), s.user());
        assertEquals(new Filter.Condition("label", Operator.EQ, false, "x"), s.node());
        assertEquals(NodeSelection.ALL, NodeFilters.parse(List.of(), " ", ""));
    }

    static String refusal(String text) {
        return assertThrows(InvalidInputException.class, () -> c(text)).getMessage();
    }

    @Test
    void refusalsNameTheValidChoices() {
        assertTrue(refusal("colour=red").contains("fields are [uuid, label"), refusal("colour=red"));
        assertTrue(refusal("label=near=x").contains("unknown operator '=near='"));
        assertTrue(refusal("uuid>x").contains("operator '>' does not apply to uuid"), refusal("uuid>x"));
        assertTrue(refusal("attributes.s=longer=x").contains("takes a length"));
        assertTrue(refusal("mtime=soon").contains("ISO date or time"));
        assertTrue(refusal("attributes.v=in=()").contains("at least one value"));
        assertTrue(refusal("=x").contains("<field><operator><value>"));
    }
}
