package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.objects.testing.FaultyProxy;
import dev.cairn.storage.objects.testing.S3Server;

/**
 * Bulk reads of a pack in a bucket, counted at a proxy in front of S3Proxy: neighbours merge into one
 * ranged GET while the gap between them is at most the container's read gap limit, and no further; the
 * planner's limit, not the bucket, decides.
 */
class S3RangedReadsIT {

    /** Ten objects of 600 KiB, one after another in one pack: a bucket's 1 MiB gap spans one, not two. */
    static final int OBJECTS = 10;

    static final int SIZE = 600 << 10;

    @TempDir
    Path dir;

    S3Server server;
    FaultyProxy proxy;
    final AtomicInteger packGets = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        server = new S3Server(dir.resolve("s3"));
        proxy = new FaultyProxy(server.port(), 0, 1);
        proxy.before(line -> line.startsWith("GET ") && line.contains("/packs/"), line -> packGets.incrementAndGet());
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        server.close();
    }

    /** How many ranged GETs of the pack a bulk read of objects {@code which} makes, checking what it reads. */
    private int getsToRead(Container c, List<ObjectKey> keys, List<byte[]> contents, int... which) throws Exception {
        List<ObjectKey> wanted = new ArrayList<>();
        for (int i : which) {
            wanted.add(keys.get(i));
        }
        int before = packGets.get();
        Map<ObjectKey, byte[]> back = c.getAll(wanted);
        int gets = packGets.get() - before;
        for (int i : which) {
            assertArrayEquals(contents.get(i), back.get(keys.get(i)), "object " + i);
        }
        return gets;
    }

    @Test
    void neighboursMergeIntoOneGetWhileTheirGapIsWithinTheLimit() throws Exception {
        List<byte[]> contents = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < OBJECTS; i++) {
            byte[] b = new byte[SIZE];
            r.nextBytes(b);
            contents.add(b);
        }
        S3Location at = server.location(proxy.endpoint(), dir.resolve("cache"));
        try (Container c = Container.init(at, ContainerConfig.bucketDefaults())) {
            List<ObjectKey> keys = c.putAllToPacks(contents, Compression.NONE);
            assertEquals(1, c.stats().packFiles());

            assertEquals(1, getsToRead(c, keys, contents, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), "all ten: one GET");
            assertEquals(1, getsToRead(c, keys, contents, 0, 2, 4, 6), "gaps of 600 KiB: merged");
            assertEquals(4, getsToRead(c, keys, contents, 0, 3, 6, 9), "gaps of 1.2 MiB: a GET each");
        }
        // another container, the same objects, a wider gap limit: the planner merges what it did not
        S3Location other = server.location(proxy.endpoint(), dir.resolve("cache-wide"));
        try (Container c =
                Container.init(other, ContainerConfig.bucketDefaults().withReadGapLimit(2 << 20))) {
            List<ObjectKey> keys = c.putAllToPacks(contents, Compression.NONE);
            assertEquals(1, getsToRead(c, keys, contents, 0, 3, 6, 9), "gaps of 1.2 MiB within a 2 MiB limit: merged");
        }
    }
}
