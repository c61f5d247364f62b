package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Formats are chosen by name or told apart by their first bytes, and each opens its own reader and writer. */
class ArchiveFormatTest {

    @Test
    void aFormatIsNamedCaseInsensitivelyAndAnUnknownNameListsTheKnownOnes() {
        assertEquals(ArchiveFormat.CAIRN, ArchiveFormat.of("Cairn "));
        assertEquals(ArchiveFormat.AIIDA, ArchiveFormat.of("aiida"));
        InvalidArchiveOptionException e =
                assertThrows(InvalidArchiveOptionException.class, () -> ArchiveFormat.of("tar"));
        assertEquals("unknown archive format 'tar'; the formats are cairn, aiida", e.getMessage());
    }

    @Test
    void anArchiveWrittenByItsFormatIsRecognisedByItsFirstBytesAndReadBack() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ArchiveHeader header = new ArchiveHeader("cairn-archive", "1", "test", Instant.now(), Map.of(), Map.of());
        try (ArchiveWriter writer = ArchiveFormat.CAIRN.writer(bytes)) {
            writer.begin(header);
            for (ArchivePart part : ArchivePart.ROWS) {
                writer.rows(part).close();
            }
            writer.finish();
        }
        byte[] start = Arrays.copyOf(bytes.toByteArray(), ArchiveFormat.SIGNATURE_BYTES);
        assertEquals(Optional.of(ArchiveFormat.CAIRN), ArchiveFormat.detect(start));
        try (ArchiveReader reader = ArchiveFormat.CAIRN.open(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals("test", reader.header().producer());
            assertEquals(header.counts(), reader.header().counts());
        }
    }

    @Test
    void aFileWrittenByItsFormatAppearsWholeAndIsReadBack(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("a.cairn");
        ArchiveHeader header = new ArchiveHeader("cairn-archive", "1", "test", Instant.now(), Map.of(), Map.of());
        try (ArchiveWriter writer = ArchiveFormat.CAIRN.writer(file)) {
            writer.begin(header);
            for (ArchivePart part : ArchivePart.ROWS) {
                writer.rows(part).close();
            }
            assertFalse(Files.exists(file), "no file before the archive is complete");
            writer.finish();
        }
        try (ArchiveReader reader = ArchiveFormat.CAIRN.open(file)) {
            assertEquals("test", reader.header().producer());
        }
    }

    @Test
    void aZipIsTakenForAiidasAndBytesOfNoFormatAreNotRecognised() {
        assertEquals(
                Optional.of(ArchiveFormat.AIIDA),
                ArchiveFormat.detect("PK\u0003\u0004 a zip".getBytes(StandardCharsets.ISO_8859_1)));
        assertFalse(ArchiveFormat.AIIDA.readsStreams() || ArchiveFormat.AIIDA.writesStreams(), "a zip needs a file");
        assertTrue(ArchiveFormat.detect("%PDF-1.7".getBytes(StandardCharsets.ISO_8859_1))
                .isEmpty());
        assertTrue(ArchiveFormat.detect(new byte[3]).isEmpty());
    }
}
