package dev.cairn.storage.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.archive.ArchiveRoundTripIT.Installation;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Every bad archive is refused with an error naming what and where, and leaves the installation as it
 * was: no node, no link, no user, no indexed object. Damaged files come from a good export; bad rows
 * are written as another installation could write them.
 */
class ArchiveBadInputIT {

    @RegisterExtension
    static final TestDatabase sourceDb = new TestDatabase();

    @RegisterExtension
    static final TestDatabase targetDb = new TestDatabase();

    @TempDir
    static Path tmp;

    static Installation source;
    static Installation target;
    static byte[] good;

    @BeforeAll
    static void open() throws Exception {
        source = Installation.open(sourceDb, tmp.resolve("source-objects"), "source@example.com");
        target = Installation.open(targetDb, tmp.resolve("target-objects"), "target@example.com");
        new ArchiveGraph(source.graph(), source.database(), tmp, "cluster");
        good = Files.readAllBytes(source.exportFile(ExportRequest.ofEverything(), tmp.resolve("good.cairn")));
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
        target.close();
    }

    @Test
    void aDamagedFileIsRefusedAndNothingIsImported() throws Exception {
        refused(Arrays.copyOf(good, 5), "not a Cairn archive");
        refused(Arrays.copyOf(good, 40), "truncated");
        refused(Arrays.copyOf(good, good.length / 2), "truncated");
        refused(Arrays.copyOf(good, good.length - 3), "truncated");

        byte[] version = good.clone();
        version[13] = 9;
        refused(version, "format version 9");

        byte[] zip = good.clone();
        zip[0] = 'P';
        zip[1] = 'K';
        refused(zip, "not a Cairn archive");

        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        refused(trailing, "bytes after the trailer");

        refused(replace(good, "\"part\":\"nodes\",\"count\":", "\"part\":\"nodes\",\"count\":1"), "nodes part");
        byte[] sum = good.clone();
        int at = indexOf(
                        sum,
                        "\"sha256\":\"".getBytes(StandardCharsets.US_ASCII),
                        indexOf(sum, "{\"part\":\"links\",\"count\"".getBytes(StandardCharsets.US_ASCII), 0))
                + 10;
        sum[at] = (byte) (sum[at] == 'a' ? 'b' : 'a');
        refused(sum, "checksum of the links part does not match");

        byte[] flipped = good.clone();
        int chunk = indexOf(flipped, "{\"part\":\"nodes\"}".getBytes(StandardCharsets.US_ASCII), 0) + 40;
        flipped[chunk] ^= 0x5a;
        InvalidArchiveException e = refused(flipped, "nodes part");
        assertTrue(e.getMessage().contains("decompress") || e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void rowsThatBreakTheGraphsRulesAreRefusedNamingTheRow() throws Exception {
        UUID d = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID c2 = UUID.randomUUID();
        refused(
                new ArchiveBuilder()
                        .data(d)
                        .calc(c)
                        .calc(c2)
                        .link(d, c, "input_calc", "x")
                        .link(c, d, "create", "result"),
                "the archive's links form a cycle, which provenance cannot have");
        UUID e = UUID.randomUUID();
        refused(
                new ArchiveBuilder()
                        .data(e)
                        .calc(c)
                        .calc(c2)
                        .link(c, e, "create", "a")
                        .link(c2, e, "create", "b"),
                "links part, row 2: node " + e + " would have a second creator");
        refused(
                new ArchiveBuilder().data(d).calc(c).link(c, d, "input_calc", "x"),
                "links part, row 1: INPUT_CALC cannot join");
        refused(
                new ArchiveBuilder().data(d).link(d, UUID.randomUUID(), "input_calc", "x"),
                "is neither in the archive nor here");
        refused(new ArchiveBuilder().data(d).calc(c).link(d, c, "input_calc", "_x"), "link label '_x'");
        refused(
                new ArchiveBuilder()
                        .data(d)
                        .calc(c)
                        .link(d, c, "input_calc", "x")
                        .link(d, c, "input_calc", "x"),
                "is given twice");
    }

    @Test
    void nodesWithBadTypesStatesOrFilesAreRefusedNamingTheRow() throws Exception {
        UUID d = UUID.randomUUID();
        refused(
                new ArchiveBuilder().node(d, "data.bad type.", "{}", "{}"),
                "nodes part, row 1: node type 'data.bad type.'");
        refused(
                new ArchiveBuilder().node(d, "process.calculation.other.Unknown.", "{\"sealed\": true}", "{}"),
                "which this Cairn cannot read");
        refused(
                new ArchiveBuilder()
                        .node(
                                d,
                                "process.calculation.calcfunction.CalcFunctionNode.",
                                "{\"process_state\": \"running\"}",
                                "{}"),
                "is a process that is not sealed");
        byte[] bytes = "payload".getBytes(StandardCharsets.UTF_8);
        String key = ArchiveBuilder.key(bytes).toString();
        refused(
                new ArchiveBuilder()
                        .node(
                                d,
                                "data.core.folder.FolderData.",
                                "{}",
                                "{\"o\": {\"..\": {\"o\": {\"passwd\": {\"k\": \"" + key + "\"}}}}}")
                        .object(bytes),
                "has a file named \"..\"");
        refused(
                new ArchiveBuilder()
                        .node(
                                d,
                                "data.core.folder.FolderData.",
                                "{}",
                                "{\"o\": {\"/etc/passwd\": {\"k\": \"" + key + "\"}}}")
                        .object(bytes),
                "has a file named \"/etc/passwd\"");
        refused(
                new ArchiveBuilder()
                        .node(d, "data.core.folder.FolderData.", "{}", "{\"o\": {\"f\": {\"k\": \"../../x\"}}}"),
                "names object key \"../../x\"");
        refused(
                new ArchiveBuilder()
                        .node(d, "data.core.folder.FolderData.", "{}", "{\"o\": {\"f\": {\"k\": \"" + key + "\"}}}"),
                "are neither in the archive nor here");
        refused(
                new ArchiveBuilder()
                        .node(d, "data.core.folder.FolderData.", "{}", "{\"o\": {\"f\": {\"k\": \"" + key + "\"}}}")
                        .object("other".getBytes(StandardCharsets.UTF_8), ArchiveBuilder.key(bytes)),
                "whose SHA-256 is");
        refused(
                new ArchiveBuilder().row(ArchivePart.NODES, "{\"uuid\": oops}"),
                "nodes part, row 1: not one JSON object");
        refused(new ArchiveBuilder().row(ArchivePart.NODES, "[1, 2]"), "nodes part, row 1: the row is a JSON array");
        refused(new ArchiveBuilder().data(d).data(d), "uuid " + d + " is given twice");
        refused(
                new ArchiveBuilder()
                        .node(UUID.randomUUID(), "data.core.int.Int.", "{}", "{}")
                        .row(
                                ArchivePart.NODES,
                                "{\"uuid\": \"" + UUID.randomUUID() + "\", \"node_type\": \"data.core.int.Int.\","
                                        + " \"ctime\": \"yesterday\", \"mtime\": \"2026-11-24T10:00:00Z\", \"user\": \"x@y\"}"),
                "nodes part, row 2: ctime is \"yesterday\", not an ISO 8601 time");
    }

    /**
     * The nodes stream in batches of 2,000, each written while the next is read: a bad row, or a uuid
     * given twice, far past the first batch still leaves nothing behind.
     */
    @Test
    void aBadNodeAfterTheFirstBatchesAreWrittenLeavesNothingBehind() throws Exception {
        UUID first = UUID.randomUUID();
        ArchiveBuilder twice = new ArchiveBuilder().data(first);
        ArchiveBuilder late = new ArchiveBuilder();
        ArchiveBuilder outOfRange = new ArchiveBuilder();
        for (int i = 0; i < 4_500; i++) {
            twice.data(UUID.randomUUID());
            late.data(UUID.randomUUID());
            outOfRange.data(UUID.randomUUID());
        }
        refused(twice.data(first), "nodes part, row 4502: uuid " + first + " is given twice");
        refused(
                late.row(
                        ArchivePart.NODES,
                        "{\"uuid\": \"" + UUID.randomUUID() + "\", \"node_type\": \"data.core.int.Int.\","
                                + " \"ctime\": 20261124, \"mtime\": \"2026-11-24T10:00:00Z\", \"user\": \"x@y\"}"),
                "nodes part, row 4501: ctime is 20261124, not an ISO 8601 time");
        // well-formed, yet no time: PostgreSQL refuses it as the batch is written, naming the batch's rows
        refused(
                outOfRange.row(
                        ArchivePart.NODES,
                        "{\"uuid\": \"" + UUID.randomUUID() + "\", \"node_type\": \"data.core.int.Int.\","
                                + " \"ctime\": \"2026-13-45T10:00:00Z\", \"mtime\": \"2026-11-24T10:00:00Z\","
                                + " \"user\": \"" + ArchiveBuilder.USER + "\"}"),
                "nodes part, rows 4001 to 4501: date/time field value out of range");
    }

    /**
     * The files of new nodes are checked after the archive's objects are indexed: a refusal then takes
     * back the objects this import indexed, and the same object imports again later.
     */
    @Test
    void aNewNodesFileMissingOnceTheObjectsAreIndexedTakesThemBack() throws Exception {
        byte[] bytes = "indexed, then taken back\n".getBytes(StandardCharsets.UTF_8);
        ObjectKey sent = ArchiveBuilder.key(bytes);
        ObjectKey missing = ArchiveBuilder.key("never sent".getBytes(StandardCharsets.UTF_8));
        UUID complete = UUID.randomUUID();
        UUID lacking = UUID.randomUUID();
        refused(
                new ArchiveBuilder()
                        .node(complete, "data.core.singlefile.SinglefileData.", "{\"filename\": \"a.txt\"}", file(sent))
                        .node(
                                lacking,
                                "data.core.singlefile.SinglefileData.",
                                "{\"filename\": \"a.txt\"}",
                                file(missing))
                        .object(bytes),
                "node " + lacking + " has a file whose bytes (" + missing + ") are neither in the archive nor here");
        assertFalse(target.container().contains(sent), "the object indexed before the refusal is taken back");

        target.importFile(
                new ArchiveBuilder()
                        .node(complete, "data.core.singlefile.SinglefileData.", "{\"filename\": \"a.txt\"}", file(sent))
                        .object(bytes)
                        .write(tmp.resolve("complete.cairn")),
                ImportOptions.defaults());
        assertEquals(
                "indexed, then taken back\n",
                new String(target.graph().readFile(target.graph().load(complete), "a.txt"), StandardCharsets.UTF_8),
                "the node alone imports with its file");
    }

    /**
     * The rows' writes after the last row part run while the objects are read: a bad object found while
     * they still run stops them (their statement is cancelled) before the transaction rolls back, and a
     * link refused by them stops the reading of the objects.
     */
    @Test
    void aFailureOnEitherSideOfTheRowsAndObjectsOverlapLeavesNothingBehind() throws Exception {
        byte[] bytes = "payload".getBytes(StandardCharsets.UTF_8);
        ArchiveBuilder badObject = manyLinkedNodes(new ArchiveBuilder(), 6_000);
        badObject.object("other".getBytes(StandardCharsets.UTF_8), ArchiveBuilder.key(bytes));
        for (int i = 0; i < 50; i++) {
            badObject.object(("object " + i).getBytes(StandardCharsets.UTF_8));
        }
        refused(badObject, "whose SHA-256 is");
        assertNoRowWriterLeft();

        UUID twiceCreated = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID c2 = UUID.randomUUID();
        ArchiveBuilder badLink = manyLinkedNodes(new ArchiveBuilder(), 2_000)
                .data(twiceCreated)
                .calc(c)
                .calc(c2)
                .link(c, twiceCreated, "create", "a")
                .link(c2, twiceCreated, "create", "b");
        for (int i = 0; i < 2_000; i++) {
            badLink.object(("link test object " + i).getBytes(StandardCharsets.UTF_8));
        }
        refused(badLink, "node " + twiceCreated + " would have a second creator");
        assertNoRowWriterLeft();

        ArchiveBuilder good = manyLinkedNodes(new ArchiveBuilder(), 500).object(bytes);
        ImportResult r = target.importFile(good.write(tmp.resolve("good-after.cairn")), ImportOptions.defaults());
        assertEquals(1_000, r.added().get(ArchivePart.NODES), "the connection the refusals used imports again");
    }

    /** {@code n} calculations, each with an input of its own: rows for the writes after the nodes to chew on. */
    private static ArchiveBuilder manyLinkedNodes(ArchiveBuilder archive, int n) {
        for (int i = 0; i < n; i++) {
            UUID d = UUID.randomUUID();
            UUID calc = UUID.randomUUID();
            archive.data(d).calc(calc).link(d, calc, "input_calc", "x");
        }
        return archive;
    }

    private static void assertNoRowWriterLeft() {
        assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().equals("cairn-archive-rows") && t.isAlive()),
                "the refused import's writer of rows has ended before the import answered");
    }

    @Test
    void anArchiveThatExpandsBeyondTheLimitIsRefusedAsABomb() throws Exception {
        byte[] zeros = new byte[48 << 20];
        String key = ArchiveBuilder.key(zeros).toString();
        Path bomb = new ArchiveBuilder()
                .node(
                        UUID.randomUUID(),
                        "data.core.singlefile.SinglefileData.",
                        "{\"filename\": \"z\"}",
                        "{\"o\": {\"z\": {\"k\": \"" + key + "\"}}}")
                .object(zeros)
                .write(tmp.resolve("bomb.cairn"));
        assertTrue(Files.size(bomb) < 1 << 20, "48 MiB of zeros compress to a few KiB");
        long nodes = GraphFixtures.count(target.database(), "node");
        long objects = objects();
        try (CairnArchiveReader reader =
                CairnArchiveReader.open(Files.newInputStream(bomb), new ExpansionLimit(16 << 20, 100))) {
            InvalidArchiveException e = assertThrows(
                    InvalidArchiveException.class,
                    () -> new ArchiveImport(
                                    target.database(),
                                    target.container(),
                                    target.graph().userId())
                            .importFrom(reader, ImportOptions.defaults(), ArchiveProgress.NONE));
            assertTrue(
                    e.getMessage().contains("more than 100-fold")
                            && e.getMessage().contains("compression bomb"),
                    e.getMessage());
        }
        assertEquals(nodes, GraphFixtures.count(target.database(), "node"));
        assertEquals(objects, objects());
    }

    private static String file(ObjectKey key) {
        return "{\"o\": {\"a.txt\": {\"k\": \"" + key + "\"}}}";
    }

    private InvalidArchiveException refused(ArchiveBuilder archive, String expected) throws Exception {
        return refused(Files.readAllBytes(archive.write(tmp.resolve("bad.cairn"))), expected);
    }

    private InvalidArchiveException refused(byte[] archive, String expected) throws Exception {
        Path file = Files.write(tmp.resolve("bad-bytes.cairn"), archive);
        long nodes = GraphFixtures.count(target.database(), "node");
        long users = GraphFixtures.count(target.database(), "app_user");
        long objects = objects();
        InvalidArchiveException e =
                assertThrows(InvalidArchiveException.class, () -> target.importFile(file, ImportOptions.defaults()));
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
        assertEquals(nodes, GraphFixtures.count(target.database(), "node"), "no node imported");
        assertEquals(users, GraphFixtures.count(target.database(), "app_user"), "no user imported");
        assertEquals(objects, objects(), "no object indexed");
        return e;
    }

    private long objects() throws Exception {
        AtomicLong n = new AtomicLong();
        target.container().forEachKey(k -> n.incrementAndGet());
        return n.get();
    }

    private static byte[] replace(byte[] bytes, String from, String to) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = text.indexOf(from);
        assertTrue(at >= 0, from);
        return (text.substring(0, at) + to + text.substring(at + from.length())).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static int indexOf(byte[] bytes, byte[] what, int from) {
        outer:
        for (int i = from; i <= bytes.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (bytes[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found: " + new String(what, StandardCharsets.US_ASCII));
    }
}
