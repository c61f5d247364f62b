package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

/** squeue's compressed node lists (%N) into machine names. */
class SlurmHostlistTest {

    @Test
    void plainNamesRangesAndPaddingExpand() {
        assertEquals(List.of("vm"), SlurmHostlist.expand("vm"));
        assertEquals(
                List.of("nid00684", "nid00685", "nid00722", "login1"),
                SlurmHostlist.expand("nid00[684-685,722],login1"));
        assertEquals(List.of("node8", "node9", "node10"), SlurmHostlist.expand("node[8-10]"));
        assertEquals(List.of("n008", "n009", "n010"), SlurmHostlist.expand("n[008-010]"));
    }

    @Test
    void severalBracketsInOneNameMakeEveryCombination() {
        assertEquals(
                List.of("rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02", "gpu-a"),
                SlurmHostlist.expand("rack[1-2]-n[01-02],gpu-a,rack1-n01"));
    }

    @Test
    void aJobWithoutNodesHasNoNames() {
        assertNull(SlurmHostlist.expand(""));
        assertNull(SlurmHostlist.expand("  "));
    }

    @Test
    void aListThisCannotReadIsKeptWholeRatherThanFailingThePoll() {
        assertEquals(List.of("node[1-"), SlurmHostlist.expand("node[1-"));
        assertEquals(List.of("node[a-b]"), SlurmHostlist.expand("node[a-b]"));
        assertEquals(
                List.of("n[1-999999999]"), SlurmHostlist.expand("n[1-999999999]"), "more names than a cluster has");
    }
}
