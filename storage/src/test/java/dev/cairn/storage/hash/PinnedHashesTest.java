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
        assertEquals("328e70ca7cd066b15173b822e747bc7d46ed1e5243ed51e6804e577abc9d5f67",
                NodeHasher.hash(ExampleNodes.integer(1)));
    }

    @Test
    void dictNodeWithNesting() {
        assertEquals("3e045366842fc4ba67393ecb9b34098c68227908044779fd4184ae219544f0c2",
                NodeHasher.hash(ExampleNodes.dict()));
    }

    @Test
    void structureNode() {
        assertEquals("1877b74e4c9cd9d76849cbb9a9600572e5fa833a1da07fe63776ef5219f746ed",
                NodeHasher.hash(ExampleNodes.structure(36)));
    }

    @Test
    void calcJobNodeWithInputsAndComputer() {
        assertEquals("a71052c25983497f7422a598ef51f247be6b40be08e3024fbfd5a7bba904524c",
                NodeHasher.hash(ExampleNodes.calcJob()));
    }

    @Test
    void folderNodeWithFiles() {
        assertEquals("2a69a20d0edbdfcb0290f7ddb4958b83038da24542721cb930cba69369408fc0",
                NodeHasher.hash(ExampleNodes.folder()));
    }
}
