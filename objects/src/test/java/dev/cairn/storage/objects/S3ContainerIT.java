package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.objects.testing.S3Server;

/**
 * The contract on a container in a bucket of a real S3 server (S3Proxy on a folder), and what only a
 * bucket does: several hosts, each with its own copy of the index, sharing one container.
 */
class S3ContainerIT extends ContainerContractTest {

    @TempDir
    static Path serverDir;

    static S3Server server;

    private final Map<String, S3Location> locations = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = new S3Server(serverDir.resolve("s3"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Override
    Container create(String name, ContainerConfig config) throws Exception {
        S3Location at = server.location(dir.resolve("cache-" + name));
        locations.put(name, at);
        return Container.init(at, config);
    }

    @Override
    Container reopen(String name) throws Exception {
        return Container.open(locations.get(name));
    }

    /** The same container as seen from another host: its own cache folder. */
    private Container otherHost(String name) throws Exception {
        S3Location at = locations.get(name);
        return Container.open(new S3Location(
                at.bucket(),
                at.prefix(),
                at.endpoint(),
                at.region(),
                at.pathStyle(),
                at.accessKey(),
                at.secretKey(),
                dir.resolve("other-host-" + name),
                at.maxAttempts(),
                at.timeout()));
    }

    @Test
    void anotherHostSeesWhatOneHostPackedAndDeleted() throws Exception {
        List<byte[]> objects = randomObjects(300, 3000, 41);
        List<ObjectKey> keys = container.putAllToPacks(objects, Compression.ZSTD);
        ObjectKey loose = container.put(bytes("loose on host one"));
        try (Container other = otherHost("c")) {
            Map<ObjectKey, byte[]> back = other.getAll(keys);
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(objects.get(i), back.get(keys.get(i)));
            }
            assertArrayEquals(bytes("loose on host one"), other.get(loose));

            other.delete(keys.subList(0, 100));
            other.repack();
            assertTrue(
                    container.existing(keys.subList(0, 1)).isEmpty(), "host one sees the delete at its next bulk call");
            assertArrayEquals(objects.get(200), container.get(keys.get(200)), "and reads the repacked objects");
            assertTrue(container.validate().isValid());
        }
    }

    @Test
    void aLostCacheIsRebuiltFromTheBucket() throws Exception {
        List<byte[]> objects = randomObjects(200, 2000, 43);
        List<ObjectKey> keys = container.putAllToPacks(objects, Compression.NONE);
        container.delete(keys.subList(0, 10));
        container.close();
        try (var files = Files.walk(dir.resolve("cache-c"))) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        container = reopen("c");
        assertFalse(container.contains(keys.get(0)));
        for (int i = 10; i < keys.size(); i++) {
            assertArrayEquals(objects.get(i), container.get(keys.get(i)));
        }
        assertEquals(190, container.stats().packedObjects());
    }

    @Test
    void newAndLaggingHostsStartFromTheNewestCheckpointOnceTheLogIsPruned() throws Exception {
        try (Container lagging = otherHost("c")) {
            List<byte[]> objects = randomObjects(120, 1000, 59);
            List<ObjectKey> keys = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                keys.addAll(container.putAllToPacks(objects.subList(round * 40, round * 40 + 40), Compression.NONE));
                container.delete(keys.subList(round * 40, round * 40 + 5));
                container.cleanStorage(false); // a checkpoint each round; the second prunes the first's log
            }
            S3Bucket bucket = (S3Bucket) container.parts().remote();
            List<String> log = new ArrayList<>();
            bucket.list(locations.get("c").prefix() + IndexLog.FOLDER, null, o -> log.add(o.key()));
            assertTrue(log.size() < 9, "the log was pruned behind the checkpoints: " + log);

            List<ObjectKey> kept = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                kept.addAll(keys.subList(round * 40 + 5, round * 40 + 40));
            }
            assertEquals(kept.size(), lagging.existing(keys).size(), "a host left behind restores a checkpoint");
            try (Container fresh = otherHost("c")) {
                assertEquals(kept.size(), fresh.getAll(kept).size());
                assertTrue(fresh.existing(keys.subList(0, 5)).isEmpty());
            }
            try (Container anew = Container.open(new S3Location(
                    locations.get("c").bucket(),
                    locations.get("c").prefix(),
                    locations.get("c").endpoint(),
                    "us-east-1",
                    true,
                    S3Server.ACCESS_KEY,
                    S3Server.SECRET_KEY,
                    dir.resolve("third-host"),
                    8,
                    locations.get("c").timeout()))) {
                assertTrue(anew.validate().isValid());
                assertEquals(kept.size(), anew.stats().packedObjects());
            }
        }
    }

    @Test
    void theLockKeepsAPackerOfAnotherHostOut() throws Exception {
        try (Container other = otherHost("c");
                PackBatch batch = other.openPackBatch(Compression.NONE)) {
            batch.add(bytes("x"));
            ContainerLockedException e = assertThrows(ContainerLockedException.class, () -> container.packAllLoose());
            assertTrue(e.getMessage().contains("one packer at a time"), e.getMessage());
        }
        container.packAllLoose();
    }

    /**
     * A writer whose lock was taken over (a paused holder whose lock went stale) must not commit over the
     * writer that took it: its commit finds its log entry taken, and its batch is rolled back.
     */
    @Test
    void aWriterThatLostItsLockCannotCommitOverTheNextOne() throws Exception {
        ObjectKey first;
        try (Container other = otherHost("c");
                PackBatch stale = other.openPackBatch(Compression.NONE)) {
            first = stale.add(bytes("written by the stale holder"));
            ((S3Bucket) container.parts().remote()).delete(locations.get("c").prefix() + S3Lock.NAME);
            ObjectKey second = container
                    .putAllToPacks(List.of(bytes("written by the next holder")), Compression.NONE)
                    .getFirst();
            assertThrows(ContainerLockedException.class, stale::commit);
            assertArrayEquals(bytes("written by the next holder"), other.get(second));
        }
        assertFalse(container.contains(first), "the stale holder's batch is rolled back");
        assertTrue(container.validate().isValid());
        assertEquals(1, container.stats().packFiles(), "its pack is gone from the bucket too");
    }

    @Test
    void validationReadsEveryPackInTheBucketAndNamesDamage() throws Exception {
        List<ObjectKey> keys = container.putAllToPacks(randomObjects(50, 1000, 47), Compression.NONE);
        S3Bucket bucket = (S3Bucket) container.parts().remote();
        String pack = locations.get("c").prefix() + S3Packs.FOLDER + "0";
        byte[] bytes = bucket.get(pack);
        PackEntry hit = container.parts().cache().findFresh(keys.get(7));
        bytes[(int) hit.offset()] ^= 1;
        bucket.put(pack, bytes);
        ValidationReport report = container.validate();
        assertEquals(List.of(keys.get(7)), report.damagedKeys());
        assertTrue(report.problems().getFirst().where().startsWith("s3://"), report.toString());
    }

    @Test
    void largeObjectsGoUpInPartsAndStreamBack() throws Exception {
        byte[] big = new byte[(int) S3Bucket.SINGLE_PUT_MAX + (5 << 20)];
        new Random(5).nextBytes(big);
        ObjectKey loose = container.put(new ByteArrayInputStream(big));
        try (InputStream in = container.open(loose)) {
            assertArrayEquals(big, in.readAllBytes());
        }
        container.packAllLoose();
        container.cleanStorage(false);
        assertTrue(container.meta(loose).packed());
        try (InputStream in = container.open(loose)) {
            assertArrayEquals(big, in.readAllBytes());
        }
        assertTrue(container.validate().isValid());
    }

    @Test
    void aCopyOfABucketIsAContainerInAFolder() throws Exception {
        List<byte[]> objects = randomObjects(100, 2000, 53);
        List<ObjectKey> keys = container.putAllToPacks(objects, Compression.ZSTD);
        ObjectKey loose = container.put(bytes("still loose"));
        container.copyTo(dir.resolve("copy"), null, step -> {});
        container.putAllToPacks(List.of(bytes("after the first copy")), Compression.NONE);
        CopyReport again = container.copyTo(dir.resolve("copy2"), dir.resolve("copy"), step -> {});
        assertEquals(1, again.filesLinked(), "the pack the first copy holds is linked");
        try (Container copy = Container.open(dir.resolve("copy2"))) {
            for (int i = 0; i < keys.size(); i++) {
                assertArrayEquals(objects.get(i), copy.get(keys.get(i)));
            }
            assertArrayEquals(bytes("still loose"), copy.get(loose));
            assertTrue(copy.validate().isValid());
        }
    }
}
