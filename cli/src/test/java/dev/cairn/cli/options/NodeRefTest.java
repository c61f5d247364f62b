package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.cairn.cli.client.CliException;

class NodeRefTest {

    @Test
    void pksUuidsAndPrefixesAreTakenAndLowerCased() {
        assertEquals("42", NodeRef.parse("42").text());
        assertEquals("pk:42", NodeRef.parse("PK:42").text());
        assertEquals("0190c1a2", NodeRef.parse("0190C1A2").text());
        assertEquals("uuid:0190", NodeRef.parse("uuid:0190").text());
        assertEquals(
                "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",
                NodeRef.parse("0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55").text());
    }

    @Test
    void whatIsNeitherIsRefusedBeforeAnyRequest() {
        for (String bad :
                new String[] {"abc", "xyz!", "pk:abc", "uuid:12", "", "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55f"}) {
            assertThrows(CliException.class, () -> NodeRef.parse(bad), bad);
        }
    }
}
