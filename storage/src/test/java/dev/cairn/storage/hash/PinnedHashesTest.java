package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Hashes of fixed nodes, computed once and written down. A failure here means the canonical
 * form changed: stored hashes would no longer match, so the change needs a new
 * {@link NodeHasher#FORMAT_VERSION}, a rehash of stored nodes, and new pins. The values were
 * also reproduced by an implementation of the written format in another language.
 */
class PinnedHashesTest {

    @Test
    void intNode() {
        assertEquals(
                "328e70ca7cd066b15173b822e747bc7d46ed1e5243ed51e6804e577abc9d5f67",
                NodeHasher.hash(ExampleNodes.integer(1)));
    }

    @Test
    void dictNodeWithNesting() {
        assertEquals(
                "e48c0a597a9f5219cf38d788c587a7e6b82270cb8cd57049cb3d42d1e8aeacf4",
                NodeHasher.hash(ExampleNodes.dict()));
    }

    @Test
    void structureNode() {
        assertEquals(
                "8cdf0cdfe3e683eb73f56de3b7c49c1f8d360f50a4a5b750d90e90760941a0a5",
                NodeHasher.hash(ExampleNodes.structure(36)));
    }

    @Test
    void calcJobNodeWithInputsAndComputer() {
        assertEquals(
                "d0c1f764404faf564570a062050d679875b79231c11b4900b279c36966411ee3",
                NodeHasher.hash(ExampleNodes.calcJob()));
    }

    @Test
    void folderNodeWithFiles() {
        assertEquals(
                "2a69a20d0edbdfcb0290f7ddb4958b83038da24542721cb930cba69369408fc0",
                NodeHasher.hash(ExampleNodes.folder()));
    }
}
