package dev.cairn.api.archives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveWriter;
import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * Downloads and uploads of either kind of format: written straight into the body or through a spooled
 * file sent with its length, read as it comes or from a spooled file; the spooled files are gone after,
 * the response's stream is never closed by the writer, and a body of no format is refused by its bytes.
 */
class ArchiveTransfersTest {

    @TempDir
    Path spool;

    /** An empty archive, as an export writes one. */
    static void emptyArchive(ArchiveWriter writer) throws IOException {
        writer.begin(new ArchiveHeader("cairn-archive", "1", "test", Instant.now(), Map.of(), Map.of()));
        for (ArchivePart part : ArchivePart.ROWS) {
            writer.rows(part).close();
        }
        writer.finish();
    }

    /** A response's stream: closing it would end the response. */
    static final class Body extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void bothWaysOfWritingSendTheSameArchiveAndLeaveTheBodyOpen() throws Exception {
        Body streamed = new Body();
        ArchiveDownload.streamed(ArchiveFormat.CAIRN, ArchiveTransfersTest::emptyArchive, streamed);
        Body spooled = new Body();
        long[] length = {-1};
        ArchiveDownload.spooled(
                ArchiveFormat.CAIRN, ArchiveTransfersTest::emptyArchive, spooled, spool, n -> length[0] = n);
        assertEquals(spooled.size(), length[0], "the spooled body's length is sent first");
        assertEquals(streamed.size(), spooled.size());
        assertTrue(!streamed.closed && !spooled.closed, "the container ends the response, not the writer");
        assertSpoolEmpty();

        for (byte[] upload : new byte[][] {streamed.toByteArray(), spooled.toByteArray()}) {
            try (ArchiveUpload read = ArchiveUpload.open(new ByteArrayInputStream(upload), spool)) {
                assertEquals("test", read.reader().header().producer());
            }
            try (ArchiveUpload read =
                    ArchiveUpload.spooled(ArchiveFormat.CAIRN, new ByteArrayInputStream(upload), spool)) {
                assertEquals(ArchiveFormat.CAIRN, read.format());
                Inspection.readThrough(read.reader())
                        .forEach((part, size) -> assertEquals(0, size.count(), part.key()));
            }
            assertSpoolEmpty();
        }
    }

    @Test
    void aFailedSpooledExportSendsNothingAndLeavesNoFile() throws IOException {
        Body body = new Body();
        assertThrows(
                IOException.class,
                () -> ArchiveDownload.spooled(
                        ArchiveFormat.CAIRN,
                        writer -> {
                            throw new IOException("the database went away");
                        },
                        body,
                        spool,
                        n -> {}));
        assertEquals(0, body.size());
        assertSpoolEmpty();
    }

    @Test
    void aBodyOfNoFormatIsRefusedNamingItsFirstBytes() throws Exception {
        InvalidArchiveException e = assertThrows(
                InvalidArchiveException.class,
                () -> ArchiveUpload.open(
                        new ByteArrayInputStream("%PDF-1.7".getBytes(StandardCharsets.ISO_8859_1)), spool));
        assertTrue(e.getMessage().contains("25 50 44 46"), e.getMessage());
        InvalidArchiveException zip = assertThrows(
                InvalidArchiveException.class,
                () -> ArchiveUpload.open(
                        new ByteArrayInputStream("PK\u0003\u0004...".getBytes(StandardCharsets.ISO_8859_1)), spool));
        assertTrue(zip.getMessage().contains("not a zip file"), zip.getMessage());
        assertSpoolEmpty();
        assertTrue(assertThrows(
                        InvalidArchiveException.class,
                        () -> ArchiveUpload.open(new ByteArrayInputStream(new byte[0]), spool))
                .getMessage()
                .startsWith("the body is empty"));
    }

    private void assertSpoolEmpty() throws IOException {
        try (Stream<Path> files = Files.list(spool)) {
            assertEquals(0, files.count(), "no spooled file is left");
        }
    }
}
