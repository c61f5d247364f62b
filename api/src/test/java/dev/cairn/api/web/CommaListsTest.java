package dev.cairn.api.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class CommaListsTest {

    @Test
    void repeatedAndCommaSeparatedNamesMakeOneListInLowerCaseEachOnce() {
        assertEquals(
                List.of("created", "waiting", "finished"),
                CommaLists.names(List.of("created, Waiting", "FINISHED,created", " ,,")));
    }

    @Test
    void noParameterAndEmptyOnesAreNoNames() {
        assertEquals(List.of(), CommaLists.names(null));
        assertEquals(List.of(), CommaLists.names(Arrays.asList("", null, " , ")));
    }
}
