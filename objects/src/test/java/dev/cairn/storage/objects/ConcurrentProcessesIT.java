package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several JVMs on one container at once: writers, a packer and readers, as on a shared cluster filesystem. */
class ConcurrentProcessesIT {

    @TempDir
    Path dir;

    @Test
    void writersPackerAndReadersInSeparateProcessesKeepEveryObject() throws Exception {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults().withPackSizeTarget(4 << 20))
                .close();
        Path stop = dir.resolve("stop");
        int writers = 3;
        int span = 4000;
        List<ChildJvm> writing = new ArrayList<>();
        // writer w writes objects [w*span/2, w*span/2 + span): each overlaps its neighbours by half
        for (int w = 0; w < writers; w++) {
            writing.add(ChildJvm.start(
                    "write", c.toString(), Integer.toString(w * span / 2), Integer.toString(w * span / 2 + span)));
        }
        try (ChildJvm packer = ChildJvm.start("pack", c.toString(), stop.toString());
                ChildJvm reader = ChildJvm.start("read", c.toString(), stop.toString())) {
            for (ChildJvm w : writing) {
                assertEquals(0, w.waitFor(300), "a writer failed");
                assertEquals("done", w.readLine(5));
                w.close();
            }
            Files.createFile(stop);
            assertEquals(0, packer.waitFor(300), "the packer failed");
            assertTrue(packer.readLine(5).startsWith("packed "));
            assertEquals(0, reader.waitFor(300), "the reader failed");
            assertTrue(reader.readLine(5).startsWith("reads "));
        }
        int total = (writers - 1) * span / 2 + span;
        try (Container container = Container.open(c)) {
            ValidationReport report = container.validate();
            assertTrue(report.isValid(), report.problems().toString());
            for (int i = 0; i < total; i++) {
                byte[] expected = ContainerDriver.content(i);
                assertArrayEquals(expected, container.get(Sha256.keyOf(expected)), "object " + i);
            }
            container.cleanStorage(true);
            assertEquals(0, container.stats().looseObjects());
            assertTrue(container.validate().isValid());
        }
    }

    @Test
    void aSecondPackerIsRefusedWhileAnotherProcessPacks() throws Exception {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults()).close();
        try (Container container = Container.open(c);
                ChildJvm holder = ChildJvm.start("hold-lock", c.toString())) {
            assertEquals("locked", holder.readLine(60));
            container.put(ContainerDriver.content(5));
            ContainerLockedException e = assertThrows(ContainerLockedException.class, container::packAllLoose);
            assertTrue(e.getMessage().contains("pid " + holder.pid()), e.getMessage());
            assertTrue(e.getMessage().contains("one packer at a time"), e.getMessage());
            assertThrows(ContainerLockedException.class, () -> container.cleanStorage(false));
            assertThrows(ContainerLockedException.class, () -> container.repack());
            assertThrows(
                    ContainerLockedException.class,
                    () -> container.putAllToPacks(List.of(new byte[10]), Compression.NONE));
            // reads and loose writes go on meanwhile
            assertArrayEquals(ContainerDriver.content(5), container.get(Sha256.keyOf(ContainerDriver.content(5))));
            holder.proceed();
            assertEquals(0, holder.waitFor(60));
            assertEquals(1, container.packAllLoose().objectsPacked());
            assertTrue(container.validate().isValid());
        }
    }

    static void assertReadable(Container container, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            byte[] expected = ContainerDriver.content(i);
            assertArrayEquals(expected, container.get(Sha256.keyOf(expected)), "object " + i);
        }
    }
}
