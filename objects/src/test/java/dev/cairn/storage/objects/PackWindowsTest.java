package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mapped windows of {@link PackFiles}, with windows of 64 KiB so that a pack of a few hundred KiB has several. */
class PackWindowsTest {

    private static final int BITS = 16;
    private static final int WINDOW = 1 << BITS;
    private static final long REMAP_STEP = 32 << 10;

    @TempDir
    Path dir;

    private PackFiles packs;
    private Path pack;
    private byte[] bytes;

    @BeforeEach
    void writePack() throws IOException {
        Files.createDirectories(dir.resolve(PackFiles.FOLDER));
        pack = dir.resolve(PackFiles.FOLDER).resolve("0");
        bytes = new byte[5 * WINDOW / 2];
        new Random(1).nextBytes(bytes);
        Files.write(pack, bytes);
        packs = new PackFiles(dir, BITS, REMAP_STEP);
    }

    @AfterEach
    void close() throws IOException {
        packs.close();
    }

    private byte[] through(PackFiles.Window w, long from, long to) {
        byte[] out = new byte[(int) (to - from)];
        w.buffer().get((int) (from - w.start()), out);
        return out;
    }

    @Test
    void aWindowShowsThePackAndNeverCrossesItsBoundary() throws IOException {
        PackFiles.Window first = packs.window(0, 10, 1000);
        assertNotNull(first);
        assertEquals(0, first.start());
        assertArrayEquals(Arrays.copyOfRange(bytes, 10, 1000), through(first, 10, 1000));
        assertSame(first, packs.window(0, WINDOW - 100, WINDOW), "one mapping per window");

        assertNull(packs.window(0, WINDOW - 10, WINDOW + 10), "a range across two windows is read by position");

        PackFiles.Window second = packs.window(0, WINDOW + 5, WINDOW + 500);
        assertEquals(WINDOW, second.start());
        assertArrayEquals(
                Arrays.copyOfRange(bytes, WINDOW + 5, WINDOW + 500), through(second, WINDOW + 5, WINDOW + 500));

        PackFiles.Window last = packs.window(0, 2 * WINDOW, bytes.length);
        assertEquals(bytes.length, last.end(), "the last window ends where the pack does");
        assertNull(
                packs.window(0, bytes.length - 10, bytes.length + 10), "past the end: read by position, which says so");
        assertEquals(3, packs.mappedWindows());
    }

    @Test
    void theLastWindowGrowsWithItsPackOnceItGrewEnough() throws IOException {
        PackFiles.Window before = packs.window(0, 2 * WINDOW, 2 * WINDOW + 100);
        byte[] more = new byte[(int) REMAP_STEP];
        new Random(2).nextBytes(more);
        long end = bytes.length;
        append(Arrays.copyOf(more, 1000));
        assertNull(packs.window(0, end, end + 1000), "a small new tail is read by position");
        append(Arrays.copyOfRange(more, 1000, more.length));
        PackFiles.Window after = packs.window(0, end, end + 1000);
        assertNotNull(after);
        assertNotSame(before, after);
        assertEquals(end + more.length, after.end());
        assertArrayEquals(Arrays.copyOf(more, 1000), through(after, end, end + 1000));
        assertArrayEquals(
                Arrays.copyOfRange(bytes, 2 * WINDOW, 2 * WINDOW + 100), through(after, 2 * WINDOW, 2 * WINDOW + 100));
    }

    @Test
    void aForgottenPackHasNoWindowsLeft() throws IOException {
        packs.window(0, 0, 10);
        packs.window(0, WINDOW, WINDOW + 10);
        assertEquals(2, packs.mappedWindows());
        packs.delete(0);
        assertEquals(0, packs.mappedWindows());
    }

    @Test
    void aPackCutShortUnderItsWindowIsReadByPosition() throws IOException {
        assertNotNull(packs.window(0, 0, 100));
        try (FileChannel ch = FileChannel.open(pack, StandardOpenOption.WRITE)) {
            ch.truncate(1000);
        }
        assertNull(packs.window(0, 0, 100), "a window longer than its pack is not handed out");
    }

    private void append(byte[] more) throws IOException {
        try (FileChannel ch = FileChannel.open(pack, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(more));
        }
    }
}
