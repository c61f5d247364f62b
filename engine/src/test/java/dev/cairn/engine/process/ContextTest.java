package dev.cairn.engine.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class ContextTest {

    @Test
    void plainValuesRoundTripThroughJson() {
        Context c = new Context()
                .put("n", 3)
                .put("f", 1.5)
                .put("s", "a")
                .put("l", List.of(1, "b"))
                .put("m", Map.of("k", true));
        Context back = Context.fromJson(c.toJson(), id -> {
            throw new AssertionError("no nodes");
        });
        assertEquals(3L, back.getLong("n"));
        assertEquals(1.5, back.getDouble("f"));
        assertEquals(List.of(1L, "b"), back.get("l"));
        assertEquals(Map.of("k", true), back.get("m"));
    }

    @Test
    void whatACheckpointCannotHoldIsRefusedWhenPut() {
        var e = assertThrows(InvalidInputException.class, () -> new Context().put("t", new Thread()));
        assertTrue(e.getMessage().contains("context 't' cannot hold a java.lang.Thread"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> new Context().put("nan", Double.NaN));
        assertThrows(InvalidInputException.class, () -> new Context().put("m", Map.of("@node", 1)));
    }

    @Test
    void appendBuildsAListAndNamesAMismatch() {
        Context c = new Context().append("a", 1).append("a", 2);
        assertEquals(List.of(1L, 2L), c.get("a"));
        c.put("s", "x");
        assertThrows(IllegalStateException.class, () -> c.append("s", 1));
        var missing = assertThrows(IllegalStateException.class, () -> c.getLong("none"));
        assertTrue(missing.getMessage().contains("the context has no 'none'"));
    }
}
