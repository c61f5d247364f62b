package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a JVM in the middle of a write or of packing: nothing partial may ever become visible. */
class CrashIT {

    private static final String ENDLESS = Long.toString(1L << 40);

    @TempDir
    Path dir;

    @Test
    void killDuringALargeLooseWriteLeavesNoPartialObject() throws Exception {
        Path c = dir.resolve("c");
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            container.put(ContainerDriver.content(1));
        }
        try (ChildJvm writer = ChildJvm.start("big-loose", c.toString(), ENDLESS)) {
            waitUntil(() -> largestFile(c.resolve("sandbox")) > (64 << 20));
            writer.kill9();
        }
        assertTrue(largestFile(c.resolve("sandbox")) > 0, "the killed writer left its sandbox file");
        try (Container container = Container.open(c)) {
            assertEquals(0, count(c.resolve("sandbox")), "opening cleans the files of dead writers");
            assertEquals(1, container.stats().looseObjects());
            assertTrue(container.validate().isValid());
            assertEquals(1, container.packAllLoose().objectsPacked());
        }
    }

    @Test
    void killDuringPackingLeavesTheContainerValidAndPackableAgain() throws Exception {
        Path c = dir.resolve("c");
        int objects = 3000;
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            for (int i = 0; i < objects; i++) {
                container.put(bigContent(i));
            }
        }
        try (ChildJvm packer = ChildJvm.start("pack-loose", c.toString())) {
            assertEquals("packing", packer.readLine(60));
            waitUntil(() -> largestFile(c.resolve("packs")) > (32 << 20));
            packer.kill9();
        }
        try (Container container = Container.open(c)) {
            assertEquals(0, container.stats().packedObjects(), "nothing of the killed batch is indexed");
            assertTrue(
                    container.validate().isValid(),
                    container.validate().problems().toString());
            assertEquals(objects, container.packAllLoose().objectsPacked());
            container.cleanStorage(false);
            ContainerStats stats = container.stats();
            assertEquals(objects, stats.packedObjects());
            assertEquals(stats.packedStoredBytes(), stats.packFileBytes(), "the killed batch's bytes were cut off");
            assertTrue(container.validate().isValid());
            for (int i = 0; i < objects; i += 97) {
                byte[] expected = bigContent(i);
                assertTrue(Arrays.equals(expected, container.get(Sha256.keyOf(expected))), "object " + i);
            }
        }
    }

    @Test
    void killDuringABulkPackWriteLeavesNoPartialObject() throws Exception {
        Path c = dir.resolve("c");
        ObjectKey kept;
        try (Container container = Container.init(c, ContainerConfig.defaults())) {
            kept = container
                    .putAllToPacks(List.of(ContainerDriver.content(3)), Compression.NONE)
                    .get(0);
        }
        try (ChildJvm writer = ChildJvm.start("big-pack", c.toString(), ENDLESS)) {
            waitUntil(() -> largestFile(c.resolve("packs")) > (64 << 20));
            writer.kill9();
        }
        try (Container container = Container.open(c)) {
            assertEquals(1, container.stats().packedObjects());
            assertTrue(container.validate().isValid());
            container.putAllToPacks(List.of(ContainerDriver.content(4)), Compression.NONE);
            ContainerStats stats = container.stats();
            assertEquals(2, stats.packedObjects());
            assertEquals(stats.packedStoredBytes(), stats.packFileBytes(), "the killed write's bytes were cut off");
            assertTrue(Arrays.equals(ContainerDriver.content(3), container.get(kept)));
            assertTrue(container.validate().isValid());
        }
    }

    /** About 150 KiB per object: enough bytes that packing takes long enough to be killed half-way. */
    private static byte[] bigContent(int i) {
        byte[] b = new byte[100_000 + (i % 100) * 1000];
        new Random(i).nextBytes(b);
        return b;
    }

    private interface Condition {
        boolean holds() throws IOException;
    }

    private static void waitUntil(Condition condition) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited two minutes for the child to get there");
            }
            Thread.sleep(5);
        }
    }

    private static long largestFile(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.mapToLong(f -> f.toFile().length()).max().orElse(0);
        }
    }

    private static long count(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }
}
