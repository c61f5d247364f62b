package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race of a full maintenance with a node being stored, in two processes: another JVM stores objects
 * the container holds packed and unreferenced (a put that finds them writes nothing) and commits a
 * reference to each 20 ms later, while this one sweeps, packs and cleans in a loop. Every object referred
 * to must be there at the end; deleting the unreferenced objects at once loses some.
 */
class SweepWhileStoringIT {

    static final int OBJECTS = 150;
    static final Duration GRACE = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @Test
    void anObjectStoredWhileSweepsRunIsNeverLostToThem() throws Exception {
        Path root = dir.resolve("c");
        Path refs = dir.resolve("refs");
        Files.createFile(refs);
        try (Container c = Container.init(root, ContainerConfig.defaults())) {
            List<byte[]> contents = new ArrayList<>();
            for (int i = 0; i < OBJECTS; i++) {
                contents.add(ContainerDriver.content(i));
            }
            c.putAllToPacks(contents, Compression.NONE);
            int sweeps = 0;
            int deleted = 0;
            try (ChildJvm child =
                    ChildJvm.start("store-and-refer", root.toString(), Integer.toString(OBJECTS), refs.toString())) {
                while (!child.hasEnded()) {
                    deleted += c.sweep(() -> references(refs), GRACE, false).deleted();
                    c.packAllLoose();
                    c.cleanStorage(false);
                    sweeps++;
                }
                assertEquals(0, child.waitFor(60), "the storing process failed");
                assertEquals("done", child.readLine(5));
            }
            Set<ObjectKey> referred = references(refs);
            assertEquals(OBJECTS, referred.size());
            for (int i = 0; i < OBJECTS; i++) {
                byte[] expected = ContainerDriver.content(i);
                assertArrayEquals(expected, c.get(Sha256.keyOf(expected)), "object " + i + " is referred to");
            }
            assertTrue(c.validate().isValid());
            assertTrue(deleted > 0 && sweeps > 10, deleted + " deleted in " + sweeps + " sweeps: the race was run");
        }
    }

    private static Set<ObjectKey> references(Path refs) throws IOException {
        Set<ObjectKey> keys = new HashSet<>();
        for (String line : Files.readAllLines(refs)) {
            if (line.length() == 64) { // a line being appended may be cut short
                keys.add(ObjectKey.of(line));
            }
        }
        return keys;
    }
}
