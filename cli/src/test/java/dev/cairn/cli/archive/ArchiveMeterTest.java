package dev.cairn.cli.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The meter counts rows and objects as an archive streams by in pieces of any size, and passes every byte on. */
class ArchiveMeterTest {

    /** What the meter told. */
    static final class Told implements ArchiveMeter.Listener {
        long total = -1;
        final List<Long> done = new ArrayList<>();

        @Override
        public void total(long rowsAndObjects) {
            total = rowsAndObjects;
        }

        @Override
        public void done(long rowsAndObjects) {
            done.add(rowsAndObjects);
        }
    }

    static TestArchive archive() {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            nodes.add("{\"uuid\": \"n" + i + "\", \"label\": \"" + "x".repeat(i) + "\"}");
        }
        byte[] big = new byte[300];
        Arrays.fill(big, (byte) '\n'); // newlines in objects are no rows
        return new TestArchive(
                Map.of("users", List.of("{\"email\": \"a@b\"}"), "nodes", nodes, "links", List.of("{}", "{}")),
                List.of("one".getBytes(StandardCharsets.UTF_8), new byte[0], big),
                37);
    }

    @Test
    void rowsAndObjectsAreCountedAgainstTheHeadersTotalWhateverTheWritesSizes() throws Exception {
        byte[] bytes = archive().bytes(true);
        for (int piece : new int[] {1, 7, 4096, bytes.length}) {
            Told told = new Told();
            ByteArrayOutputStream copy = new ByteArrayOutputStream();
            try (ArchiveMeter meter = new ArchiveMeter(copy, told)) {
                for (int at = 0; at < bytes.length; at += piece) {
                    meter.write(bytes, at, Math.min(piece, bytes.length - at));
                }
                assertFalse(meter.cutShort(), "the trailer went by");
            }
            assertArrayEquals(bytes, copy.toByteArray(), "every byte passed on");
            assertEquals(1 + 25 + 2 + 3, told.total, "writes of " + piece);
            assertEquals(1 + 25 + 2 + 3, told.done.getLast(), "writes of " + piece);
        }
    }

    @Test
    void anArchiveWithoutItsTrailerIsCutShort() throws Exception {
        byte[] bytes = archive().bytes(false);
        ArchiveMeter meter = new ArchiveMeter(new ByteArrayOutputStream(), new Told());
        meter.write(bytes);
        assertTrue(meter.cutShort());
    }

    @Test
    void bytesOfNoArchivePassThroughUncounted() throws Exception {
        byte[] bytes = "{\"detail\": \"not an archive at all, but long enough\"}".getBytes(StandardCharsets.UTF_8);
        Told told = new Told();
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        ArchiveMeter meter = new ArchiveMeter(copy, told);
        meter.write(bytes);
        assertArrayEquals(bytes, copy.toByteArray());
        assertEquals(-1, told.total);
        assertTrue(told.done.isEmpty());
        assertFalse(meter.cutShort(), "of another format the meter cannot tell");
    }
}
