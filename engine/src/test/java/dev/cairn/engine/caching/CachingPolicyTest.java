package dev.cairn.engine.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class CachingPolicyTest {

    @Test
    void theMostSpecificPatternWins() {
        CachingPolicy p = new CachingPolicy(false, List.of("qe.*", "qe.pw.relax"), List.of("qe.pw.*"));
        assertTrue(p.isEnabled("qe.ph", null));
        assertFalse(p.isEnabled("qe.pw.scf", null), "qe.pw.* is more specific than qe.*");
        assertTrue(p.isEnabled("qe.pw.relax", null), "an exact name beats every wildcard");
        assertFalse(p.isEnabled("arithmetic.add", null), "no match: the default");
        assertTrue(new CachingPolicy(true, List.of(), List.of("qe.*")).isEnabled("arithmetic.add", null));
    }

    @Test
    void aLaunchOverrideWins() {
        assertFalse(CachingPolicy.ALL.isEnabled("a.b", false));
        assertTrue(CachingPolicy.OFF.isEnabled("a.b", true));
    }

    @Test
    void equallySpecificPatternsOnBothSidesAreRefusedByName() {
        CachingPolicy p = new CachingPolicy(false, List.of("qe.*"), List.of("qe.*"));
        var e = assertThrows(IllegalStateException.class, () -> p.isEnabled("qe.pw", null));
        assertEquals(
                "caching for 'qe.pw' is ambiguous: 'qe.*' enables it and 'qe.*' disables it, equally specific",
                e.getMessage());
    }

    @Test
    void aWildcardOnlyEndsAPattern() {
        assertThrows(InvalidInputException.class, () -> CachingPolicy.enabledFor("qe.*.relax"));
    }
}
