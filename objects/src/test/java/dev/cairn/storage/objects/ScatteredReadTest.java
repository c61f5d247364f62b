package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bulk reads of a scattered subset of the keys, as an export makes them: small objects far apart are
 * delivered from a mapping of their pack, larger runs are read by position, and both can meet in one call.
 */
class ScatteredReadTest {

    @TempDir
    Path dir;

    private Container container;
    /** Every object written, by key; several sizes around the limit of a mapped block, some compressed. */
    private final Map<ObjectKey, byte[]> stored = new LinkedHashMap<>();

    @AfterEach
    void close() throws IOException {
        if (container != null) {
            container.close();
        }
    }

    private void fill(ContainerConfig config) throws IOException {
        container = Container.init(dir.resolve("c"), config);
        List<byte[]> objects = ContainerTest.randomObjects(3000, 2000, 1);
        objects.addAll(ContainerTest.randomObjects(20, 3 * BulkReader.MAPPED_BLOCK_MAX, 2));
        objects.add(new byte[0]);
        store(objects, Compression.NONE);
        List<byte[]> text = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            text.add(("object " + i + ": energy -1.2345 forces 0.1 0.2 0.3\n")
                    .repeat(1 + i % 40)
                    .getBytes(StandardCharsets.UTF_8));
        }
        store(text, Compression.ZSTD);
    }

    private void store(List<byte[]> objects, Compression compression) throws IOException {
        List<ObjectKey> keys = container.putAllToPacks(objects, compression);
        for (int i = 0; i < keys.size(); i++) {
            stored.put(keys.get(i), objects.get(i));
        }
    }

    private List<ObjectKey> subset(double fraction, long seed) {
        Random r = new Random(seed);
        List<ObjectKey> out = new ArrayList<>();
        for (ObjectKey k : stored.keySet()) {
            if (r.nextDouble() < fraction) {
                out.add(k);
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.1, 0.5, 1.0})
    void aScatteredSubsetDeliversEachFoundKeyOnceThenNamesTheMissing(double fraction) throws IOException {
        fill(ContainerConfig.defaults());
        List<ObjectKey> wanted = subset(fraction, 7);
        List<ObjectKey> missing = List.of(ObjectKey.of("0".repeat(64)), ObjectKey.of("f".repeat(64)));
        List<ObjectKey> asked = new ArrayList<>(wanted);
        asked.addAll(wanted.subList(0, wanted.size() / 3)); // asked twice, delivered once
        asked.addAll(missing);
        Collections.shuffle(asked, new Random(8));

        Map<ObjectKey, byte[]> got = new HashMap<>();
        List<ObjectKey> order = new ArrayList<>();
        ObjectNotFoundException e = assertThrows(
                ObjectNotFoundException.class,
                () -> container.getAll(asked, (k, b) -> {
                    order.add(k);
                    got.put(k, b);
                }));
        assertEquals(Set.copyOf(missing), Set.copyOf(e.keys()));
        assertEquals(wanted.size(), order.size(), "each found key exactly once");
        assertEquals(Set.copyOf(wanted), got.keySet());
        for (ObjectKey k : wanted) {
            assertArrayEquals(stored.get(k), got.get(k), k.hex());
        }

        Set<ObjectKey> streamed = new HashSet<>();
        assertThrows(
                ObjectNotFoundException.class,
                () -> container.streamAll(asked, (k, size, in) -> {
                    assertTrue(streamed.add(k), "streamed twice: " + k);
                    assertArrayEquals(stored.get(k), in.readAllBytes(), k.hex());
                    assertEquals(stored.get(k).length, size);
                }));
        assertEquals(Set.copyOf(wanted), streamed);
    }

    @Test
    void mappedAndReadBlocksMeetInOneCallAcrossManyBuffers() throws IOException {
        // small buffers: a read of a tenth fills several, and the read-ahead thread fills them
        fill(ContainerConfig.defaults().withReadBlockSize(4 * BulkReader.MAPPED_BLOCK_MAX));
        for (long seed = 0; seed < 5; seed++) {
            List<ObjectKey> wanted = subset(seed == 0 ? 1.0 : 0.1 * seed, seed);
            Map<ObjectKey, byte[]> got = container.getAll(wanted);
            assertEquals(Set.copyOf(wanted), got.keySet());
            for (ObjectKey k : wanted) {
                assertArrayEquals(stored.get(k), got.get(k), k.hex());
            }
        }
        assertTrue(((PackFiles) container.parts().packs()).mappedWindows() > 0, "scattered small objects were mapped");
    }

    @Test
    void objectsPackedAfterTheirPackWasMappedAreReadToo() throws IOException {
        fill(ContainerConfig.defaults());
        container.getAll(subset(0.05, 1)); // maps the pack as it is now
        // a little more: the new tail is read by position until the pack has grown enough to map again
        store(ContainerTest.randomObjects(200, 1000, 3), Compression.NONE);
        checkAll(subset(0.2, 2));
        store(ContainerTest.randomObjects(20, (int) (4 * PackFiles.REMAP_STEP / 20), 4), Compression.NONE);
        checkAll(subset(0.2, 3));
        checkAll(List.copyOf(stored.keySet()));
    }

    @Test
    void aRepackAfterScatteredReadsKeepsTheRestReadable() throws IOException {
        fill(ContainerConfig.defaults());
        container.getAll(subset(0.05, 1));
        List<ObjectKey> all = List.copyOf(stored.keySet());
        List<ObjectKey> gone = all.subList(0, all.size() / 2);
        container.delete(gone);
        assertEquals(1, container.repack().packsRewritten());
        List<ObjectKey> kept = all.subList(all.size() / 2, all.size());
        checkAll(kept);
        ObjectNotFoundException e =
                assertThrows(ObjectNotFoundException.class, () -> container.getAll(List.of(gone.get(0), kept.get(0))));
        assertEquals(List.of(gone.get(0)), e.keys());
        assertTrue(container.validate().isValid());
    }

    @Test
    void aBulkReadSeesWhatAnotherInstanceDeletedAndMoved() throws IOException {
        fill(ContainerConfig.defaults());
        List<ObjectKey> all = List.copyOf(stored.keySet());
        container.getAll(subset(0.05, 1)); // this instance's cache and windows now know the old pack
        List<ObjectKey> gone = all.subList(0, 100);
        try (Container other = Container.open(dir.resolve("c"))) {
            other.delete(gone);
            other.repack();
        }
        List<ObjectKey> asked = new ArrayList<>(subset(0.1, 2));
        asked.removeAll(gone);
        asked.add(gone.get(5));
        Map<ObjectKey, byte[]> got = new HashMap<>();
        ObjectNotFoundException e =
                assertThrows(ObjectNotFoundException.class, () -> container.getAll(asked, got::put));
        assertEquals(List.of(gone.get(5)), e.keys());
        assertEquals(asked.size() - 1, got.size());
        for (Map.Entry<ObjectKey, byte[]> g : got.entrySet()) {
            assertArrayEquals(stored.get(g.getKey()), g.getValue());
        }
    }

    @Test
    void aPackCutShortAfterItWasMappedFailsTheReadInsteadOfTheProcess() throws IOException {
        fill(ContainerConfig.defaults());
        List<ObjectKey> wanted = subset(0.05, 1);
        container.getAll(wanted); // mapped
        ObjectKey last = wanted.get(0);
        for (ObjectKey k : wanted) {
            if (container.meta(k).offset() > container.meta(last).offset()) {
                last = k;
            }
        }
        ObjectMeta meta = container.meta(last);
        try (FileChannel ch = FileChannel.open(dir.resolve("c/packs/" + meta.pack()), StandardOpenOption.WRITE)) {
            ch.truncate(meta.offset());
        }
        IOException e = assertThrows(IOException.class, () -> container.getAll(wanted));
        assertTrue(e.getMessage().contains("pack " + meta.pack()), e.getMessage());
    }

    private void checkAll(List<ObjectKey> keys) throws IOException {
        Map<ObjectKey, byte[]> got = container.getAll(keys);
        assertEquals(Set.copyOf(keys), got.keySet());
        for (ObjectKey k : keys) {
            assertArrayEquals(stored.get(k), got.get(k), k.hex());
        }
    }
}
