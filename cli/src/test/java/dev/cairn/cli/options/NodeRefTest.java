package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import dev.cairn.cli.client.CliException;

class NodeRefTest {

    @Test
    void aUuidOrAPrefixOfFourDigitsOrMoreIsAReference() {
        assertEquals("0190c1a2", new NodeRef("0190C1A2").text());
        assertEquals("1234", new NodeRef(" 1234 ").text());
        assertEquals(
                "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55", new NodeRef("0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55").text());
    }

    @Test
    void anythingElseIsRefusedSayingWhatAReferenceIs() {
        for (String bad : new String[] {"12", "zz12", "----", "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55-0", "my-run"}) {
            assertThrows(CliException.class, () -> new NodeRef(bad), bad);
        }
        TypeConversionException e =
                assertThrows(TypeConversionException.class, () -> new NodeRef.Converter().convert("12"));
        assertEquals(
                "'12' is not a node reference: give its uuid or a prefix of it (at least 4 hex digits, as `cairn"
                        + " process list` shows them)",
                e.getMessage());
    }
}
