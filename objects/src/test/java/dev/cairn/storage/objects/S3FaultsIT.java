package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.objects.testing.FaultyProxy;
import dev.cairn.storage.objects.testing.S3Server;

/**
 * A container in a bucket behind a server that fails requests now and then ({@link FaultyProxy}: 500s,
 * and requests that take effect but whose answer is lost): retries hold and nothing is lost; a failure
 * that persists surfaces as a {@link BucketUnavailableException} naming the bucket and the request.
 */
class S3FaultsIT {

    @TempDir
    Path dir;

    S3Server server;
    FaultyProxy proxy;

    @BeforeEach
    void start() throws Exception {
        server = new S3Server(dir.resolve("s3"));
        proxy = new FaultyProxy(server.port(), 0.1, 17);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        server.close();
    }

    @Test
    void everyOperationRidesThroughOneRequestInTenFailing() throws Exception {
        S3Location at = server.location(proxy.endpoint(), dir.resolve("cache")).withRetries(10, Duration.ofSeconds(30));
        Random r = new Random(3);
        List<byte[]> loose = ContainerContractTest.randomObjects(150, 5000, 61);
        List<byte[]> packed = ContainerContractTest.randomObjects(150, 5000, 67);
        byte[] large = new byte[(int) S3Bucket.SINGLE_PUT_MAX + (1 << 20)];
        r.nextBytes(large);
        List<ObjectKey> looseKeys = new ArrayList<>();
        List<ObjectKey> packedKeys;
        ObjectKey largeKey;
        try (Container c = Container.init(at, ContainerConfig.bucketDefaults())) {
            for (byte[] o : loose) {
                looseKeys.add(c.put(o));
            }
            largeKey = c.put(new ByteArrayInputStream(large));
            c.packAllLoose();
            c.cleanStorage(false);
            packedKeys = c.putAllToPacks(packed, Compression.ZSTD);
            c.delete(packedKeys.subList(0, 50));
            c.repack();
        }
        try (Container c = Container.open(at)) {
            Map<ObjectKey, byte[]> back = c.getAll(looseKeys);
            for (int i = 0; i < loose.size(); i++) {
                assertArrayEquals(loose.get(i), back.get(looseKeys.get(i)), "loose object " + i);
            }
            back = c.getAll(packedKeys.subList(50, packedKeys.size()));
            for (int i = 50; i < packed.size(); i++) {
                assertArrayEquals(packed.get(i), back.get(packedKeys.get(i)), "packed object " + i);
            }
            assertTrue(c.existing(packedKeys.subList(0, 50)).isEmpty(), "deleted objects stay deleted");
            try (InputStream in = c.open(largeKey)) {
                assertArrayEquals(large, in.readAllBytes());
            }
            ContainerStats stats = c.stats();
            assertEquals(0, stats.looseObjects());
            assertEquals(looseKeys.stream().distinct().count() + 1 + 100, stats.packedObjects());
            ValidationReport report = c.validate();
            assertTrue(report.isValid(), report.problems().toString());
        }
        assertTrue(
                proxy.refused.get() > 10 && proxy.dropped.get() > 10,
                "faults injected: " + proxy.refused + " refused, " + proxy.dropped + " dropped of " + proxy.requests);
    }

    @Test
    void aServerThatKeepsFailingSurfacesAsUnavailableAndLosesNothing() throws Exception {
        S3Location at = server.location(proxy.endpoint(), dir.resolve("cache")).withRetries(3, Duration.ofSeconds(10));
        proxy = reopenProxyWithoutFaults(proxy);
        at = new S3Location(
                at.bucket(),
                at.prefix(),
                proxy.endpoint(),
                at.region(),
                at.pathStyle(),
                at.accessKey(),
                at.secretKey(),
                at.cacheDir(),
                at.maxAttempts(),
                at.timeout());
        try (Container c = Container.init(at, ContainerConfig.bucketDefaults())) {
            List<ObjectKey> kept = c.putAllToPacks(ContainerContractTest.randomObjects(20, 1000, 71), Compression.NONE);
            proxy.failAll(true);
            BucketUnavailableException e = assertThrows(
                    BucketUnavailableException.class, () -> c.put(ContainerContractTest.bytes("never stored")));
            assertTrue(
                    e.getMessage().contains(at.bucket()) && e.getMessage().contains("tried 3 times"), e.getMessage());
            assertThrows(
                    BucketUnavailableException.class,
                    () -> c.putAllToPacks(List.of(ContainerContractTest.bytes("nor this")), Compression.NONE));
            proxy.failAll(false);
            assertEquals(20, c.getAll(kept).size());
            assertFalse(c.contains(Sha256.keyOf(ContainerContractTest.bytes("nor this"))));
            assertTrue(c.validate().isValid());
            assertEquals(20, c.stats().packedObjects());
        }
    }

    private FaultyProxy reopenProxyWithoutFaults(FaultyProxy old) throws Exception {
        old.close();
        return new FaultyProxy(server.port(), 0, 1);
    }
}
