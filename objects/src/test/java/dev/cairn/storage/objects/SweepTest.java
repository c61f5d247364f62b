package dev.cairn.storage.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-phase deletion of {@link Container#sweep}, on real files and a real index. Time passes by
 * backdating: marks are moved back in the index, loose files by their modification time, as if a sweep
 * and a put had happened hours ago.
 */
class SweepTest {

    static final Duration HOUR = Duration.ofHours(1);
    static final Container.References<RuntimeException> NONE = Set::of;

    @TempDir
    Path dir;

    Container container;

    @BeforeEach
    void init() throws IOException {
        container = Container.init(dir.resolve("c"), ContainerConfig.defaults());
    }

    @AfterEach
    void close() throws IOException {
        container.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Stores content and packs it, with no loose copy left: what an old unreferenced object looks like. */
    private ObjectKey packed(String content) throws IOException {
        ObjectKey key = container.put(bytes(content));
        container.packAllLoose();
        container.cleanStorage(false);
        assertFalse(loose(key), "packed and cleaned");
        return key;
    }

    private boolean loose(ObjectKey key) throws IOException {
        return container.parts().loose().exists(key);
    }

    private void backdateMarks(Duration by) throws SQLException {
        try (Connection c = index();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE deletion_mark SET marked_at = marked_at - " + by.toMillis());
        }
    }

    private void backdateLoose(ObjectKey key, Duration by) throws IOException {
        Files.setLastModifiedTime(
                container.parts().loose().file(key).orElseThrow(),
                FileTime.from(Instant.now().minus(by)));
    }

    private long marks() throws SQLException {
        try (Connection c = index();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM deletion_mark")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Connection index() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + container.root().resolve(PackIndex.FILE));
    }

    @Test
    void anUnreferencedObjectIsMarkedAndStaysReadable() throws Exception {
        ObjectKey orphan = packed("no node refers to this");
        ObjectKey kept = packed("a node refers to this");

        SweepReport first = container.sweep(() -> Set.of(kept), HOUR, false);
        assertEquals(new SweepReport(1, 0, 0, 0, 0), first);
        assertEquals(1, marks());
        assertArrayEquals(bytes("no node refers to this"), container.get(orphan));

        SweepReport again = container.sweep(() -> Set.of(kept), HOUR, false);
        assertEquals(new SweepReport(0, 0, 0, 1, 0), again, "marked less than the grace ago: it waits");
        assertTrue(container.contains(orphan));
    }

    @Test
    void anUnreferencedObjectStoredWithinTheGraceIsLeftUnmarked() throws Exception {
        ObjectKey key = container.put(bytes("its node is being stored"));
        assertEquals(new SweepReport(0, 0, 0, 0, 1), container.sweep(NONE, HOUR, false));
        assertEquals(0, marks());
        container.packAllLoose();
        assertTrue(container.parts().cache().refresh().find(key) != null, "packed as usual");
    }

    @Test
    void aPutOfAMarkedPackedObjectWritesALooseCopyWhereItOtherwiseDedups() throws Exception {
        ObjectKey a = packed("alpha");
        ObjectKey b = packed("beta");
        container.put(bytes("alpha"));
        container.put(new ByteArrayInputStream(bytes("beta")));
        assertFalse(loose(a) || loose(b), "not marked: the packed copies serve");

        container.sweep(NONE, HOUR, false);
        assertEquals(a, container.put(bytes("alpha")));
        assertEquals(b, container.put(new ByteArrayInputStream(bytes("beta"))));
        assertTrue(loose(a), "marked: put(byte[]) stores it again, loose");
        assertTrue(loose(b), "marked: put(InputStream) stores it again, loose");
    }

    @Test
    void aPutOfAMarkedLooseObjectRewritesItsFile() throws Exception {
        ObjectKey key = container.put(bytes("old and loose"));
        backdateLoose(key, Duration.ofHours(3));
        container.sweep(NONE, HOUR, false);
        Instant before = container.parts().loose().modified(key);

        container.put(bytes("old and loose"));
        assertTrue(container.parts().loose().modified(key).isAfter(before), "a new file, of now");
    }

    /** The race: the object is unreferenced in the sweep's view because its node has not committed yet. */
    @Test
    void aMarkedObjectStoredAgainWithinTheGraceIsKeptUntilItsCopyIsOld() throws Exception {
        ObjectKey key = packed("a node being stored has a file with these bytes");
        container.sweep(NONE, HOUR, false);
        backdateMarks(Duration.ofHours(2));
        container.put(bytes("a node being stored has a file with these bytes"));

        SweepReport kept = container.sweep(NONE, HOUR, false);
        assertEquals(new SweepReport(0, 0, 0, 1, 0), kept, "stored again within the grace: it waits");
        assertTrue(container.contains(key));
        container.packAllLoose();
        container.cleanStorage(false);
        assertTrue(loose(key), "cleaning leaves the loose copy of a marked object: it is the evidence");

        backdateLoose(key, Duration.ofHours(2));
        SweepReport deleted = container.sweep(NONE, HOUR, false);
        assertEquals(new SweepReport(0, 1, 0, 0, 0), deleted);
        assertFalse(container.contains(key));
        assertFalse(loose(key));
    }

    @Test
    void aMarkedObjectStillUnreferencedAfterTheGraceIsDeleted() throws Exception {
        ObjectKey packedOrphan = packed("packed orphan");
        ObjectKey kept = packed("kept");
        ObjectKey looseOrphan = container.put(bytes("loose orphan"));
        backdateLoose(looseOrphan, Duration.ofHours(2));
        assertEquals(2, container.sweep(() -> Set.of(kept), HOUR, false).marked());
        container.packAllLoose();
        assertTrue(loose(looseOrphan), "a marked loose object is not packed");
        backdateMarks(Duration.ofHours(2));

        SweepReport report = container.sweep(() -> Set.of(kept), HOUR, false);
        assertEquals(new SweepReport(0, 2, 0, 0, 0), report);
        assertEquals(Set.of(), container.existing(List.of(packedOrphan, looseOrphan)));
        assertTrue(container.contains(kept));
        assertEquals(0, marks());
        assertTrue(container.validate().isValid());
        container.repack();
        assertArrayEquals(bytes("kept"), container.get(kept));
        assertEquals(packedOrphan, container.put(bytes("packed orphan")), "storable again");
        assertTrue(container.contains(packedOrphan));
    }

    @Test
    void aMarkedObjectReferencedAgainIsUnmarked() throws Exception {
        ObjectKey key = packed("referenced again");
        container.sweep(NONE, HOUR, false);
        backdateMarks(Duration.ofHours(2));

        SweepReport report = container.sweep(() -> Set.of(key), HOUR, false);
        assertEquals(new SweepReport(0, 0, 1, 0, 0), report);
        assertEquals(0, marks());
        SweepReport next = container.sweep(NONE, HOUR, false);
        assertEquals(new SweepReport(1, 0, 0, 0, 0), next, "unreferenced once more: marked anew, not deleted");
        assertTrue(container.contains(key));
    }

    @Test
    void aDryRunSaysWhatWouldBeDoneAndChangesNothing() throws Exception {
        ObjectKey old = packed("marked long ago");
        container.sweep(NONE, HOUR, false);
        backdateMarks(Duration.ofHours(2));
        packed("not marked yet");

        SweepReport dry = container.sweep(NONE, HOUR, true);
        assertEquals(new SweepReport(1, 1, 0, 0, 0), dry);
        assertEquals(1, marks());
        assertTrue(container.contains(old));
    }

    @Test
    void anotherContainerOnTheSameFolderSeesTheMarkOnItsPutPath() throws Exception {
        ObjectKey key = packed("shared by two processes");
        try (Container other = Container.open(container.root())) {
            other.put(bytes("shared by two processes"));
            assertFalse(loose(key), "the other one's view is loaded, and the object is packed");
            container.sweep(NONE, HOUR, false);
            // a put decides on a view at most IndexCache.MAX_AGE old
            Thread.sleep(IndexCache.MAX_AGE.toMillis() + 100);
            other.put(bytes("shared by two processes"));
            assertTrue(loose(key), "the other one saw the mark and wrote a loose copy");
        }
    }

    @Test
    void aPackBatchStoringAMarkedObjectUnmarksIt() throws Exception {
        ObjectKey key = packed("imported again");
        ObjectKey wasLoose = container.put(bytes("loose, imported again"));
        backdateLoose(wasLoose, Duration.ofHours(2));
        assertEquals(2, container.sweep(NONE, HOUR, false).marked());
        try (Container other = Container.open(container.root())) {
            assertEquals(
                    List.of(key, wasLoose),
                    other.putAllToPacks(
                            List.of(bytes("imported again"), bytes("loose, imported again")), Compression.NONE));
        }
        assertEquals(0, marks());
        assertFalse(loose(key), "the packed bytes serve");
        assertTrue(container.parts().cache().refresh().find(wasLoose) != null, "the loose one is packed now");
        backdateMarks(Duration.ofHours(2));
        backdateLoose(wasLoose, Duration.ofHours(2));
        assertEquals(new SweepReport(2, 0, 0, 0, 0), container.sweep(NONE, HOUR, false), "marked anew only");
    }

    @Test
    void marksGoWithACopyOfTheContainer() throws Exception {
        ObjectKey key = packed("copied while marked");
        container.sweep(NONE, HOUR, false);
        Path copy = dir.resolve("copy");
        container.copyTo(copy, null, step -> {});
        try (Container c = Container.open(copy)) {
            assertTrue(c.validate().isValid());
            c.put(bytes("copied while marked"));
            assertTrue(c.parts().loose().exists(key), "the copy's put sees the mark");
        }
    }

    @Test
    void aContainerFromBeforeMarksGetsItsTableWhenOpened() throws Exception {
        ObjectKey key = packed("from an older version");
        container.close();
        try (Connection c = index();
                Statement s = c.createStatement()) {
            s.executeUpdate("DROP TABLE deletion_mark");
            s.executeUpdate("DELETE FROM counter WHERE name = 'marks'");
        }
        container = Container.open(dir.resolve("c"));
        assertEquals(1, container.sweep(NONE, HOUR, false).marked());
        assertTrue(container.validate().isValid());
        container.put(bytes("from an older version"));
        assertTrue(loose(key));
    }

    @Test
    void withNoGraceAMarkWaitsOnlyForPutsToSeeIt() throws Exception {
        ObjectKey key = packed("gone a second after its mark");
        container.sweep(NONE, Duration.ZERO, false);
        assertEquals(new SweepReport(0, 0, 0, 1, 0), container.sweep(NONE, Duration.ZERO, false));
        Thread.sleep(IndexCache.MAX_AGE.toMillis() + 100);
        assertEquals(new SweepReport(0, 1, 0, 0, 0), container.sweep(NONE, Duration.ZERO, false));
        assertFalse(container.contains(key));
    }
}
