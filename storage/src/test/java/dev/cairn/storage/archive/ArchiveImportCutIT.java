package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.archive.ArchiveRoundTripIT.Installation;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.testing.InsertHold;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An import whose database session ends in the middle (the primary failing over, the server
 * restarting) fails as the database being away, leaves nothing of the archive behind — no node, link,
 * group or indexed object — and the same archive imports whole once the database answers again. The
 * session is ended where the most is written and not yet committed: the import is held as it inserts
 * the links, after its nodes ({@link InsertHold}), and its session ended there.
 */
class ArchiveImportCutIT {

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase targetDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static Installation target;

    @BeforeAll
    static void open() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        target = Installation.open(targetDb, tmp.resolve("target-objects"), "target@example.com");
        new ArchiveGraph(source.graph(), source.database(), tmp, "cut");
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void anImportCutOffFromItsDatabaseLeavesNothingAndImportsWholeAfterwards() throws Exception {
        Path archive = source.exportFile(ExportRequest.ofEverything(), tmp.resolve("all.cairn"));
        long nodes = GraphFixtures.count(target.database(), "node");
        long links = GraphFixtures.count(target.database(), "link");
        long groups = GraphFixtures.count(target.database(), "node_group");
        long objects = objects();

        try (InsertHold linkInserts = InsertHold.on(targetDb, "link")) {
            CompletableFuture<ImportResult> cut = new CompletableFuture<>();
            Thread.ofPlatform().name("cut-import").start(() -> {
                try {
                    cut.complete(importFile(archive));
                } catch (Throwable t) {
                    cut.completeExceptionally(t);
                }
            });
            linkInserts.cut(linkInserts.awaitHeld(Duration.ofSeconds(60), "the import, after its nodes", cut::isDone));

            ExecutionException failed = assertThrows(ExecutionException.class, () -> cut.get(60, TimeUnit.SECONDS));
            Throwable e = failed.getCause();
            assertInstanceOf(UnavailableException.class, e, () -> "the database being away, not: " + e);
            assertTrue(SqlErrors.causedByConnectionFailure(e), () -> "a lost connection among the causes: " + e);
        }
        assertEquals(nodes, GraphFixtures.count(target.database(), "node"), "no node of the cut import");
        assertEquals(links, GraphFixtures.count(target.database(), "link"), "no link of the cut import");
        assertEquals(groups, GraphFixtures.count(target.database(), "node_group"), "no group of the cut import");
        assertEquals(objects, objects(), "no object of the cut import indexed");

        ImportResult whole = importFile(archive);
        assertEquals(
                GraphFixtures.count(source.database(), "node"),
                GraphFixtures.count(target.database(), "node") - nodes,
                "every node, once: " + whole);
        assertEquals(
                GraphFixtures.count(source.database(), "link"),
                GraphFixtures.count(target.database(), "link") - links,
                "every link, once");
        AtomicLong sourceObjects = new AtomicLong();
        source.container().forEachKey(k -> sourceObjects.incrementAndGet());
        assertEquals(sourceObjects.get(), objects() - objects, "every object, once");
    }

    private static ImportResult importFile(Path archive) {
        try {
            return target.importFile(archive, ImportOptions.defaults());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long objects() throws Exception {
        AtomicLong n = new AtomicLong();
        target.container().forEachKey(k -> n.incrementAndGet());
        return n.get();
    }
}
