package dev.cairn.storage.archive.aiida;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;

/** AiiDA's naive UTC column text and Cairn's ISO 8601 with offset, both ways, by the fast path and the slow. */
class NaiveUtcTest {

    @Test
    void aiidasColumnTextReadsAsUtc() {
        assertEquals(Instant.parse("2026-11-24T22:45:40.654088Z"), NaiveUtc.parse("2026-11-24 22:45:40.654088"));
        assertEquals(Instant.parse("2026-11-24T22:45:40Z"), NaiveUtc.parse("2026-11-24 22:45:40"));
        assertEquals(Instant.parse("2026-11-24T22:45:40.500Z"), NaiveUtc.parse("2026-11-24T22:45:40.5"));
        assertEquals(Instant.parse("2026-11-24T21:45:40.123Z"), NaiveUtc.parse("2026-11-24 22:45:40.123+01:00"));
        assertEquals(Instant.parse("2026-11-24T22:45:40.123Z"), NaiveUtc.parse(" 2026-11-24 22:45:40.123 "));
        for (String bad : List.of("", "yesterday", "2026-13-24 22:45:40", "2026-11-24 25:45:40", "2026-11-24")) {
            assertNull(NaiveUtc.parse(bad), bad);
        }
    }

    @Test
    void isoTimesNeedAnOffset() {
        for (String text : List.of(
                "2026-01-02T03:04:05.123456+01:00",
                "2026-01-02T03:04:05Z",
                "2026-01-02T03:04:05.1-09:30",
                "2026-01-02T03:04:05.123456789+00:00")) {
            assertEquals(OffsetDateTime.parse(text).toInstant(), NaiveUtc.parseIso(text), text);
        }
        assertNull(NaiveUtc.parseIso("2026-01-02T03:04:05"), "no offset");
        assertNull(NaiveUtc.parseIso("2026-02-30T03:04:05Z"), "no such day");
    }

    @Test
    void columnTextIsWhatSqlalchemyWrites() {
        assertEquals("2026-01-02 02:04:05.123456", NaiveUtc.format(Instant.parse("2026-01-02T02:04:05.123456789Z")));
        assertEquals("0999-01-02 00:00:00.000000", NaiveUtc.format(Instant.parse("0999-01-02T00:00:00Z")));
        assertEquals("2026-01-02T02:04:05.123456Z", NaiveUtc.iso(NaiveUtc.parse("2026-01-02 02:04:05.123456")));
    }

    @Test
    void nodeTypesAreCheckedAsTheSchemaChecksThem() {
        for (String good : List.of("data.core.int.Int.", "process.workflow.workchain.WorkChainNode.", "data.x.")) {
            assertEquals(true, ArchiveRows.wellFormedNodeType(good), good);
        }
        for (String bad : List.of(
                "data.core.int.Int", "data.", "data..Int.", "node.core.Int.", "", "data.core/int.Int.", "data.ü.")) {
            assertEquals(false, ArchiveRows.wellFormedNodeType(bad), bad);
        }
    }
}
