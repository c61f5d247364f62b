package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Objects far larger than the heap stream through in bounded memory. */
class LargeObjectIT {

    private static final long TWO_GIB = 2L << 30;

    @TempDir
    Path dir;

    @Test
    void aTwoGibLooseObjectRoundTripsIn64MibOfHeap() throws Exception {
        roundTrip("big-loose");
    }

    @Test
    void aTwoGibPackedObjectRoundTripsIn64MibOfHeap() throws Exception {
        roundTrip("big-pack");
    }

    private void roundTrip(String command) throws Exception {
        Path c = dir.resolve("c");
        Container.init(c, ContainerConfig.defaults()).close();
        try (ChildJvm child = ChildJvm.start(List.of("-Xmx64m"), command, c.toString(), Long.toString(TWO_GIB))) {
            assertEquals(0, child.waitFor(600), command + " failed in 64 MiB of heap");
            String line = child.readLine(5);
            assertTrue(line.startsWith("ok ") && line.endsWith(" " + TWO_GIB), line);
        }
        try (Container container = Container.open(c)) {
            ContainerStats stats = container.stats();
            assertEquals(TWO_GIB, stats.looseBytes() + stats.packedBytes());
        }
    }
}
