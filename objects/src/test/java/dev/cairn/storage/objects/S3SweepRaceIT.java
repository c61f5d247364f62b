package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.objects.testing.FaultyProxy;
import dev.cairn.storage.objects.testing.S3Server;

/**
 * The sweep's race in a bucket, made to happen: a sweep deleting old unreferenced loose objects goes
 * through a {@link FaultyProxy} that stops each DELETE of a loose object at the door and, before passing
 * it on, lets another host store that very content again and commit a reference to it. The put lands
 * between the sweep's HEAD and its DELETE, the moment a folder closes with a rename; every object
 * referred to must still be there. On the code before records of puts of marked keys, the DELETE took
 * every one of them.
 */
class S3SweepRaceIT {

    static final int OBJECTS = 40;

    @TempDir
    Path dir;

    S3Server server;
    FaultyProxy proxy;
    S3Location sweeperAt;
    Container sweeper;
    Container writer;
    /** The references committed by the writing host, as the sweep reads them. */
    final Set<ObjectKey> references = ConcurrentHashMap.newKeySet();

    final List<Throwable> hookFailures = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new S3Server(dir.resolve("s3"));
        proxy = new FaultyProxy(server.port(), 0, 1);
        sweeperAt = server.location(proxy.endpoint(), dir.resolve("sweeper"));
        sweeper = Container.init(sweeperAt, ContainerConfig.bucketDefaults());
        // another host, straight to the server: its requests do not wait at the proxy's door
        writer = Container.open(new S3Location(
                sweeperAt.bucket(),
                sweeperAt.prefix(),
                server.endpoint(),
                sweeperAt.region(),
                sweeperAt.pathStyle(),
                sweeperAt.accessKey(),
                sweeperAt.secretKey(),
                dir.resolve("writer"),
                sweeperAt.maxAttempts(),
                sweeperAt.timeout()));
    }

    @AfterEach
    void stop() throws Exception {
        writer.close();
        sweeper.close();
        proxy.close();
        server.close();
    }

    static byte[] content(int i) {
        return ("orphan " + i + " of the race").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Stores {@link #OBJECTS} unreferenced loose objects and has a sweep mark them, then lets the marks age
     * past what a put's view may lag ({@link IndexCache#MAX_AGE}): the next sweep deletes them.
     */
    private Map<String, Integer> markedOrphans() throws Exception {
        Map<String, Integer> byHex = new HashMap<>();
        for (int i = 0; i < OBJECTS; i++) {
            byHex.put(sweeper.put(content(i)).hex(), i);
        }
        Thread.sleep(1100); // the bucket's times are in whole seconds: the copies are then older than the sweep
        assertEquals(OBJECTS, sweeper.sweep(Set::of, Duration.ZERO, false).marked());
        Thread.sleep(IndexCache.MAX_AGE.toMillis() + 100);
        return byHex;
    }

    /** The request line's key when it is a DELETE of a loose object, or null. */
    private static String deletedLooseKey(String requestLine) {
        int at = requestLine.indexOf("/store/loose/");
        if (!requestLine.startsWith("DELETE ") || at < 0) {
            return null;
        }
        return requestLine.substring(at + "/store/loose/".length(), requestLine.indexOf(' ', at));
    }

    @Test
    void aPutLandingBetweenTheSweepsHeadAndDeleteIsNeverLost() throws Exception {
        Map<String, Integer> byHex = markedOrphans();
        List<Integer> storedAgain = new CopyOnWriteArrayList<>();
        proxy.before(line -> deletedLooseKey(line) != null, line -> {
            int i = byHex.get(deletedLooseKey(line));
            if (i % 2 == 1) {
                return; // left to be deleted
            }
            try {
                // the writer's view has the mark, so it writes a new loose copy; then its reference commits
                ObjectKey key = i % 4 == 0 ? writer.put(content(i)) : writer.put(new ByteArrayInputStream(content(i)));
                references.add(key);
                storedAgain.add(i);
            } catch (Exception | AssertionError e) {
                hookFailures.add(e);
            }
        });

        SweepReport report = sweeper.sweep(() -> Set.copyOf(references), Duration.ZERO, false);

        assertEquals(List.of(), hookFailures);
        assertEquals(OBJECTS / 2, storedAgain.size(), "each even object was stored again between HEAD and DELETE");
        int lost = 0;
        for (ObjectKey key : references) {
            if (!sweeper.contains(key) || !writer.contains(key)) {
                lost++;
            }
        }
        assertEquals(0, lost, "referenced objects lost to the sweep, of " + references.size());
        assertEquals(OBJECTS / 2, report.deleted(), "the odd ones, still unreferenced, are deleted");
        assertEquals(OBJECTS / 2, report.waiting(), "the ones stored again are kept, their copies put back");
        for (String hex : byHex.keySet()) {
            int i = byHex.get(hex);
            if (i % 2 == 0) {
                assertArrayEquals(content(i), writer.get(ObjectKey.of(hex)));
            } else {
                assertFalse(sweeper.contains(ObjectKey.of(hex)), "object " + i + " was deleted");
            }
        }

        // Referenced now: the next sweep unmarks them, and once the puts are older than the grace their
        // records are forgotten; the objects stay.
        proxy.before(line -> false, line -> {});
        Thread.sleep(1100);
        SweepReport after = sweeper.sweep(() -> Set.copyOf(references), Duration.ZERO, false);
        assertEquals(OBJECTS / 2, after.unmarked());
        assertEquals(List.of(), records(), "the records of the puts are gone");
        for (ObjectKey key : references) {
            assertArrayEquals(content(byHex.get(key.hex())), sweeper.get(key));
        }
        assertTrue(sweeper.validate().isValid());
    }

    @Test
    void aSweepStoppedBetweenItsDeleteAndItsCheckLeavesTheCopyToTheNextSweep() throws Exception {
        Map<String, Integer> byHex = markedOrphans();
        // One attempt a request from here, so that the sweep stops at the refusal below. Not before: a
        // put may meet a connection the JVM keeps alive to an earlier test's server on this port, which
        // fails once and is tried again on a new one.
        sweeper.close();
        sweeper = Container.open(sweeperAt.withRetries(1, Duration.ofSeconds(30)));
        String[] first = {null};
        proxy.before(line -> deletedLooseKey(line) != null, line -> {
            if (first[0] != null) {
                return;
            }
            first[0] = deletedLooseKey(line);
            try {
                references.add(writer.put(content(byHex.get(first[0]))));
            } catch (Exception | AssertionError e) {
                hookFailures.add(e);
            }
            // the sweep's look for records of puts of it fails: it stops there, the copy deleted
            proxy.refuse(l -> l.startsWith("GET ") && l.contains("revived") && l.contains(first[0]));
        });

        assertThrows(BucketUnavailableException.class, () -> sweeper.sweep(Set::of, Duration.ZERO, false));
        assertEquals(List.of(), hookFailures);
        ObjectKey key = ObjectKey.of(first[0]);
        assertFalse(writer.contains(key), "the copy is deleted and not yet put back");
        assertEquals(1, records().size(), "the record of the put holds its content");

        proxy.refuse(l -> false);
        proxy.before(l -> false, l -> {});
        sweeper.sweep(() -> Set.copyOf(references), Duration.ZERO, false);
        assertArrayEquals(content(byHex.get(first[0])), writer.get(key), "the next sweep put it back");
        assertEquals(List.of(), records());
    }

    /** The records of puts of marked keys in the bucket. */
    private List<String> records() throws Exception {
        List<String> names = new ArrayList<>();
        try (S3Bucket bucket = new S3Bucket(sweeperAt)) {
            bucket.list(sweeperAt.prefix() + S3LooseObjects.REVIVED, null, o -> names.add(o.key()));
        }
        return names;
    }
}
