package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every backend of the object store does alike: a folder ({@link ContainerTest}) and a bucket
 * ({@link S3ContainerIT}) pass the same tests.
 */
abstract class ContainerContractTest {

    @TempDir
    Path dir;

    Container container;

    /** Creates a new container named {@code name} with {@code config}. */
    abstract Container create(String name, ContainerConfig config) throws Exception;

    /** Opens the container named {@code name} again. */
    abstract Container reopen(String name) throws Exception;

    /** The configuration a test container starts from. */
    ContainerConfig defaults() {
        return ContainerConfig.defaults();
    }

    @BeforeEach
    void init() throws Exception {
        container = create("c", defaults());
    }

    @AfterEach
    void close() throws IOException {
        container.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static List<byte[]> randomObjects(int n, int maxSize, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[r.nextInt(maxSize + 1)];
            r.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    @Test
    void keyIsSha256OfContent() throws IOException {
        ObjectKey key = container.put(bytes("hello"));
        assertEquals("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", key.hex());
        assertArrayEquals(bytes("hello"), container.get(key));
    }

    @Test
    void equalContentIsStoredOnce() throws IOException {
        ObjectKey a = container.put(bytes("same"));
        ObjectKey b = container.put(new ByteArrayInputStream(bytes("same")));
        assertEquals(a, b);
        assertEquals(1, container.stats().looseObjects());
    }

    @Test
    void streamedLooseWriteReadsBackAsStream() throws IOException {
        byte[] big = randomObjects(1, 0, 1).get(0);
        big = new byte[3 << 20];
        new Random(3).nextBytes(big);
        ObjectKey key = container.put(new ByteArrayInputStream(big));
        try (InputStream in = container.open(key)) {
            assertArrayEquals(big, in.readAllBytes());
        }
        assertEquals(big.length, container.meta(key).size());
        assertFalse(container.meta(key).packed());
    }

    @Test
    void packingKeepsLooseCopiesUntilCleanStorage() throws IOException {
        List<byte[]> objects = randomObjects(200, 1000, 7);
        List<ObjectKey> keys = new ArrayList<>();
        for (byte[] o : objects) {
            keys.add(container.put(o));
        }
        PackingReport packed = container.packAllLoose();
        assertEquals(keys.stream().distinct().count(), packed.objectsPacked());
        assertTrue(container.parts().loose().exists(keys.get(0)));
        CleaningReport cleaned = container.cleanStorage(true);
        assertEquals(packed.objectsPacked(), cleaned.looseDeleted());
        assertEquals(0, container.stats().looseObjects());
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(objects.get(i), container.get(keys.get(i)));
            assertTrue(container.meta(keys.get(i)).packed());
        }
        assertTrue(container.validate().isValid());
    }

    @Test
    void cleanStorageKeepsLooseObjectsThatAreNotPacked() throws IOException {
        ObjectKey packed = container.put(bytes("packed soon"));
        container.packAllLoose();
        ObjectKey late = container.put(bytes("written after packing"));
        assertEquals(1, container.cleanStorage(false).looseDeleted());
        assertEquals(1, container.stats().looseObjects());
        assertArrayEquals(bytes("written after packing"), container.get(late));
        assertArrayEquals(bytes("packed soon"), container.get(packed));
    }

    @Test
    void bulkWritesToPacksReadBackInBulkAndSingly() throws IOException {
        for (Compression c : Compression.values()) {
            List<byte[]> objects = randomObjects(500, 2000, c.ordinal());
            objects.add(bytes("compressible ".repeat(200) + c));
            List<ObjectKey> keys = container.putAllToPacks(objects, c);
            Map<ObjectKey, byte[]> back = container.getAll(keys);
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(objects.get(i), back.get(keys.get(i)));
                assertArrayEquals(objects.get(i), container.get(keys.get(i)));
            }
            ObjectKey text = keys.get(keys.size() - 1);
            assertEquals(c != Compression.NONE, container.meta(text).compressed(), "compression " + c);
        }
        assertTrue(container.validate().isValid());
    }

    @Test
    void incompressibleObjectsAreStoredRaw() throws IOException {
        List<byte[]> random = randomObjects(20, 5000, 9);
        List<ObjectKey> keys = container.putAllToPacks(random, Compression.ZSTD);
        for (ObjectKey k : keys) {
            assertFalse(container.meta(k).compressed());
        }
    }

    @Test
    void bulkReadReportsMissingKeysAfterDeliveringTheRest() throws IOException {
        ObjectKey present = container.put(bytes("present"));
        ObjectKey absent = ObjectKey.of("0".repeat(64));
        Map<ObjectKey, byte[]> got = new HashMap<>();
        ObjectNotFoundException e =
                assertThrows(ObjectNotFoundException.class, () -> container.getAll(List.of(present, absent), got::put));
        assertEquals(List.of(absent), e.keys());
        assertArrayEquals(bytes("present"), got.get(present));
    }

    @Test
    void keysAskedTwiceAreDeliveredOnce() throws IOException {
        List<byte[]> objects = randomObjects(50, 100, 21);
        objects.add(new byte[0]);
        List<ObjectKey> keys = new ArrayList<>(container.putAllToPacks(objects, Compression.NONE));
        ObjectKey loose = container.put(bytes("loose one"));
        keys.addAll(keys.subList(0, 25));
        keys.add(loose);
        keys.add(loose);
        List<ObjectKey> delivered = new ArrayList<>();
        container.getAll(keys, (k, b) -> delivered.add(k));
        assertEquals(keys.stream().distinct().count(), delivered.size());
        assertEquals(delivered.size(), delivered.stream().distinct().count());
        List<ObjectKey> streamed = new ArrayList<>();
        container.streamAll(keys, (k, size, in) -> {
            assertEquals(size, in.readAllBytes().length);
            streamed.add(k);
        });
        assertEquals(delivered.size(), streamed.size());
    }

    @Test
    void unknownKeyIsNotFoundWithTheKeyInTheMessage() {
        ObjectKey absent = ObjectKey.of("ab".repeat(32));
        ObjectNotFoundException e = assertThrows(ObjectNotFoundException.class, () -> container.get(absent));
        assertTrue(e.getMessage().contains(absent.hex()), e.getMessage());
        assertThrows(ObjectNotFoundException.class, () -> container.open(absent));
        assertThrows(ObjectNotFoundException.class, () -> container.meta(absent));
    }

    @Test
    void malformedKeySaysWhatAKeyLooksLike() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ObjectKey.of("XYZ"));
        assertTrue(e.getMessage().contains("64 lowercase hex digits"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ObjectKey.of("AB".repeat(32)));
    }

    @Test
    void existenceAndListingCoverLooseAndPacked() throws IOException {
        ObjectKey loose = container.put(bytes("loose"));
        ObjectKey packed = container
                .putAllToPacks(List.of(bytes("packed")), Compression.NONE)
                .get(0);
        ObjectKey absent = ObjectKey.of("1".repeat(64));
        assertEquals(Set.of(loose, packed), container.existing(List.of(loose, packed, absent)));
        assertTrue(container.contains(packed));
        assertFalse(container.contains(absent));
        List<ObjectKey> all = new ArrayList<>();
        container.forEachKey(all::add);
        assertEquals(2, all.size());
        assertTrue(all.containsAll(List.of(loose, packed)));
    }

    @Test
    void deleteThenRepackReclaimsSpace() throws IOException {
        List<byte[]> objects = randomObjects(100, 1000, 11);
        List<ObjectKey> keys = container.putAllToPacks(objects, Compression.NONE);
        long before = container.stats().packFileBytes();
        List<ObjectKey> gone = keys.subList(0, 50);
        assertEquals(50, container.delete(gone));
        assertFalse(container.contains(gone.get(0)));
        RepackReport r = container.repack();
        assertEquals(1, r.packsRewritten());
        assertTrue(container.stats().packFileBytes() < before);
        for (int i = 50; i < keys.size(); i++) {
            assertArrayEquals(objects.get(i), container.get(keys.get(i)));
        }
        assertTrue(container.validate().isValid());
    }

    @Test
    void repackCanChangeCompression() throws IOException {
        byte[] text = bytes("a line of output from a simulation code\n".repeat(1000));
        ObjectKey key = container.putAllToPacks(List.of(text), Compression.NONE).get(0);
        assertFalse(container.meta(key).compressed());
        container.repack(Compression.ZLIB);
        assertEquals(Compression.ZLIB, container.meta(key).compression());
        container.repack(Compression.ZSTD);
        assertEquals(Compression.ZSTD, container.meta(key).compression());
        assertArrayEquals(text, container.get(key));
        assertTrue(container.validate().isValid());
    }

    @Test
    void packsRollOverAtTheSizeTarget() throws Exception {
        container.close();
        container = create("small", defaults().withPackSizeTarget(10_000));
        List<ObjectKey> keys = container.putAllToPacks(randomObjects(100, 1000, 5), Compression.NONE);
        assertTrue(
                container.stats().packFiles() > 3, "packs: " + container.stats().packFiles());
        assertEquals(keys.stream().distinct().count(), container.getAll(keys).size());
        assertTrue(container.validate().isValid());
    }

    @Test
    void manySmallBatchesAreCompactedAndStayReadable() throws Exception {
        List<ObjectKey> keys = new ArrayList<>();
        List<byte[]> objects = randomObjects(PackIndex.COMPACT_AT * 3, 200, 31);
        for (byte[] o : objects) {
            keys.addAll(container.putAllToPacks(List.of(o), Compression.NONE));
        }
        assertTrue(container.parts().index().state().segments() <= PackIndex.COMPACT_AT);
        container.close();
        container = reopen("c");
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(objects.get(i), container.get(keys.get(i)));
        }
        assertTrue(container.validate().isValid());
    }

    @Test
    void aBatchClosedWithoutCommitLeavesNothing() throws IOException {
        ObjectKey kept = container
                .putAllToPacks(List.of(bytes("kept")), Compression.NONE)
                .get(0);
        long size = container.stats().packFileBytes();
        ObjectKey dropped;
        try (PackBatch batch = container.openPackBatch(Compression.NONE)) {
            dropped = batch.add(bytes("dropped"));
        }
        assertFalse(container.contains(dropped));
        assertEquals(size, container.stats().packFileBytes());
        assertArrayEquals(bytes("kept"), container.get(kept));
    }

    @Test
    void aSecondPackerIsRefused() throws IOException {
        try (PackBatch batch = container.openPackBatch(Compression.NONE)) {
            batch.add(bytes("x"));
            ContainerLockedException e = assertThrows(ContainerLockedException.class, () -> container.packAllLoose());
            assertTrue(e.getMessage().contains("one packer at a time"), e.getMessage());
        }
        container.packAllLoose(); // free again
    }

    @Test
    void streamedObjectsGoStraightToPacks() throws IOException {
        byte[] text = bytes("line\n".repeat(300_000));
        ObjectKey key = container.putToPack(new ByteArrayInputStream(text), Compression.ZSTD);
        assertEquals(Compression.ZSTD, container.meta(key).compression());
        try (InputStream in = container.open(key)) {
            assertArrayEquals(text, in.readAllBytes());
        }
        ObjectKey again = container.putToPack(new ByteArrayInputStream(text), Compression.ZSTD);
        assertEquals(key, again);
        assertEquals(1, container.stats().packedObjects());
        assertEquals(container.stats().packedStoredBytes(), container.stats().packFileBytes());
    }

    @Test
    void statsCountLooseAndPacked() throws IOException {
        container.put(bytes("one"));
        container.putAllToPacks(List.of(bytes("two"), bytes("three")), Compression.NONE);
        ContainerStats s = container.stats();
        assertEquals(1, s.looseObjects());
        assertEquals(3, s.looseBytes());
        assertEquals(2, s.packedObjects());
        assertEquals(8, s.packedBytes());
        assertEquals(1, s.packFiles());
    }
}
