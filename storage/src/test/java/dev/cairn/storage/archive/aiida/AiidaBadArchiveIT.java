package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchiveImport;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ImportOptions;
import dev.cairn.storage.archive.InvalidArchiveException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Damaged and hostile copies of an archive aiida-core wrote are refused with an
 * {@link InvalidArchiveException} that names what is wrong and where (the file, the entry or the table
 * and row), and the reader leaves no scratch file behind; imported for real, an archive refused late
 * leaves the installation without a row or object of it. Unknown node types are no damage: they are
 * kept as they are.
 */
class AiidaBadArchiveIT {

    @RegisterExtension
    static final RealAiidaArchive aiida = new RealAiidaArchive();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    static Path objects;

    static Database database;
    static Container container;
    static long user;

    @TempDir
    Path work;

    @TempDir
    Path scratch;

    @BeforeAll
    static void open() throws Exception {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        container = Container.init(objects.resolve("objects"), ContainerConfig.defaults());
        user = GraphFixtures.user(database, "cairn@example.com");
    }

    @AfterAll
    static void close() throws Exception {
        container.close();
        database.close();
    }

    private ArchiveSurgery copy() {
        return ArchiveSurgery.of(aiida.archive(), work);
    }

    /** Opens and reads {@code archive} whole, as an import would. */
    private void readWhole(Path archive, AiidaArchiveLimits limits) throws IOException {
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(archive, limits, scratch)) {
            ArchiveContents.read(reader);
        }
    }

    /** The refusal of reading {@code archive}; checks no scratch file is left. */
    private String refusal(Path archive) throws IOException {
        return refusal(archive, AiidaArchiveLimits.defaults());
    }

    private String refusal(Path archive, AiidaArchiveLimits limits) throws IOException {
        Executable read = () -> readWhole(archive, limits);
        String message = assertThrows(InvalidArchiveException.class, read).getMessage();
        try (Stream<Path> left = Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "scratch files left after: " + message);
        }
        return message;
    }

    /**
     * Imports {@code archive} for real and expects a refusal; checks that the installation gained no row
     * and no object, and returns the message and the import's steps done before it.
     */
    private Refusal importRefused(Path archive) throws Exception {
        Map<String, Long> rows = rows();
        ContainerStats stats = container.stats();
        List<String> steps = new ArrayList<>();
        ArchiveProgress progress = new ArchiveProgress() {
            @Override
            public void update(ArchivePart part, long done, long total) {}

            @Override
            public void step(String step, long millis) {
                steps.add(step);
            }
        };
        String message;
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(archive, AiidaArchiveLimits.defaults(), scratch)) {
            message = assertThrows(
                            InvalidArchiveException.class,
                            () -> new ArchiveImport(database, container, user)
                                    .importFrom(reader, ImportOptions.defaults(), progress))
                    .getMessage();
        }
        assertEquals(rows, rows(), "rows added by the import refused with: " + message);
        ContainerStats after = container.stats();
        assertEquals(stats.looseObjects(), after.looseObjects(), "loose objects left by: " + message);
        assertEquals(stats.packedObjects(), after.packedObjects(), "objects indexed by: " + message);
        assertEquals(stats.packFileBytes(), after.packFileBytes(), "pack bytes left by: " + message);
        AtomicLong keys = new AtomicLong();
        container.forEachKey(k -> keys.incrementAndGet());
        assertEquals(0, keys.get(), "no object in the store");
        try (Stream<Path> left = Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "scratch files left after: " + message);
        }
        return new Refusal(message, steps);
    }

    private record Refusal(String message, List<String> steps) {}

    /** Rows per table of everything an import may add. */
    private static Map<String, Long> rows() throws SQLException {
        Map<String, Long> rows = new TreeMap<>();
        for (String table : List.of(
                "node", "link", "node_group", "group_member", "computer", "app_user", "authinfo", "comment", "log")) {
            rows.put(table, GraphFixtures.count(database, table));
        }
        return rows;
    }

    private static void assertStarts(String expected, String message) {
        assertTrue(
                message.startsWith(expected), "expected a message starting\n  " + expected + "\nbut was\n  " + message);
    }

    @Test
    void notAZipIsRefused() throws IOException {
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        Path file = Files.write(work.resolve("noise.aiida"), noise);
        assertEquals(
                "noise.aiida is not a zip file: it has no end of central directory record (truncated, or not a zip)",
                refusal(file));
    }

    @Test
    void truncatedZipIsRefused() throws IOException {
        byte[] whole = Files.readAllBytes(aiida.archive());
        Path file = Files.write(work.resolve("truncated.aiida"), Arrays.copyOf(whole, whole.length * 2 / 3));
        assertEquals(
                "truncated.aiida is not a zip file: it has no end of central directory record (truncated, or not a"
                        + " zip)",
                refusal(file));
    }

    @Test
    void damagedDeflateDataIsRefused() throws IOException {
        Path file = work.resolve("damaged.aiida");
        Files.copy(aiida.archive(), file);
        ZipEntryRecord db = record(file, "db.sqlite3");
        byte[] bytes = Files.readAllBytes(file);
        // the middle of the database's deflated bytes, past its local header
        int at = (int) (db.offset() + 30 + "db.sqlite3".length() + db.compressedSize() / 2);
        for (int i = 0; i < 64; i++) {
            bytes[at + i] ^= (byte) 0x5a;
        }
        Files.write(file, bytes);
        // what the damage turns into varies with the bytes (bad codes, too many bytes, a wrong CRC)
        String message = refusal(file);
        assertStarts("damaged.aiida, entry 'db.sqlite3' ", message);
        assertTrue(message.contains("corrupt"), message);
    }

    @Test
    void objectWhoseBytesAreNotItsKeyIsRefused() throws IOException, SQLException {
        String key = aiida.report()
                .get("files")
                .get(aiida.sample("retrieved"))
                .get("aiida.out")
                .asString();
        Path file = copy().replace("repo/" + key, "43\n".getBytes(UTF_8)).write("forged.aiida");
        String message = refusal(file);
        assertStarts("forged.aiida, entry 'repo/" + key + "' is corrupt: its SHA-256 is ", message);
        assertTrue(message.endsWith(", not the key it is stored under"), message);
    }

    /**
     * The forged object comes after every row part is read, while the rows' writes run (or after they
     * ended: they overlap the objects) and other objects went into the pack batch.
     */
    @Test
    void anImportRefusedAtAForgedObjectLeavesNothing() throws Exception {
        String key = aiida.report()
                .get("files")
                .get(aiida.sample("retrieved"))
                .get("aiida.out")
                .asString();
        Path file = copy().replace("repo/" + key, "43\n".getBytes(UTF_8)).write("forged-import.aiida");
        Refusal refusal = importRefused(file);
        assertStarts("forged-import.aiida, entry 'repo/" + key + "' is corrupt: its SHA-256 is ", refusal.message());
        assertTrue(refusal.steps().contains("staging logs"), "refused once every row part was read: " + refusal);
    }

    @Test
    void missingMetadataIsRefused() throws IOException, SQLException {
        Path file = copy().drop("metadata.json").write("no-metadata.aiida");
        assertEquals("no-metadata.aiida has no metadata.json: not an AiiDA archive", refusal(file));
    }

    @Test
    void missingDatabaseIsRefused() throws IOException, SQLException {
        Path file = copy().drop("db.sqlite3").write("no-db.aiida");
        assertEquals("no-db.aiida has no db.sqlite3: not an AiiDA main_0001 archive", refusal(file));
    }

    @Test
    void databaseThatIsNoSqliteIsRefused() throws IOException, SQLException {
        Path file = copy().replace("db.sqlite3", "not a database at all".getBytes(UTF_8))
                .write("text-db.aiida");
        assertStarts("text-db.aiida: db.sqlite3 is not an SQLite database: ", refusal(file));
    }

    @Test
    void otherExportVersionsAreRefusedPointingAtVerdiArchiveMigrate() throws IOException, SQLException {
        for (String version : List.of("0.13", "main_0002")) {
            Path file = copy().replace("metadata.json", metadata("export_version", version))
                    .write("version-" + version + ".aiida");
            assertEquals(
                    "version-" + version + ".aiida, metadata.json: export_version is '" + version + "', but only"
                            + " 'main_0001' (what aiida-core 2.x writes) is supported; convert older archives with"
                            + " aiida-core's `verdi archive migrate`",
                    refusal(file));
        }
    }

    @Test
    void metadataThatIsNoJsonIsRefused() throws IOException, SQLException {
        Path file = copy().replace("metadata.json", "{\"export_version\": ".getBytes(UTF_8))
                .write("cut.aiida");
        assertStarts("cut.aiida, metadata.json is not valid JSON: ", refusal(file));
    }

    @Test
    void entryNamesClimbingOutOrAbsoluteAreRefused() throws IOException, SQLException {
        Map<String, String> hostile = Map.of(
                "repo/../../etc/cron.d/x", "climbs out of the archive with '..'",
                "..\\evil.sh", "climbs out of the archive with '..'",
                "/etc/passwd", "is an absolute path",
                "C:\\Windows\\evil.dll", "is an absolute path");
        int n = 0;
        for (Map.Entry<String, String> name : hostile.entrySet()) {
            Path file = copy().add(name.getKey(), new byte[] {1}).write("hostile-" + n++ + ".aiida");
            assertEquals(
                    file.getFileName() + ": entry '" + name.getKey() + "' " + name.getValue()
                            + "; an AiiDA archive holds only metadata.json, db.sqlite3 and repo/<sha256>",
                    refusal(file));
        }
    }

    @Test
    void entryTwiceIsRefused() throws IOException, SQLException {
        Path file = copy().add("metadata.json", metadata("export_version", "main_0001"))
                .write("twice.aiida");
        assertEquals("twice.aiida: entry 'metadata.json' appears twice", refusal(file));
    }

    @Test
    void tooManyEntriesAreRefusedBeforeAnyIsRead() throws IOException {
        long entries = aiida.report().get("counts").get("objects").asLong() + 2;
        assertEquals(
                "fixture.aiida has " + entries + " entries, more than the 10 an archive may have",
                refusal(aiida.archive(), AiidaArchiveLimits.defaults().withMaxEntries(10)));
    }

    @Test
    void inflatingPastTheArchivesLimitIsRefused() throws IOException {
        assertStarts(
                "fixture.aiida, entry 'db.sqlite3' takes the archive past 100000 bytes inflated, the limit for one"
                        + " archive: a zip bomb",
                refusal(aiida.archive(), AiidaArchiveLimits.defaults().withMaxTotalBytes(100_000)));
    }

    @Test
    void entryInflatingFarBeyondItsCompressedSizeIsStoppedEarly() throws IOException, SQLException {
        // 64 MiB of zeros deflate to about 64 KiB: a bomb when entries may inflate 100-fold past 1 MiB
        Path file = copy().replace("db.sqlite3", new byte[64 << 20]).write("bomb.aiida");
        String message = refusal(file, AiidaArchiveLimits.defaults().withMaxRatio(100, 1 << 20));
        Matcher m = Pattern.compile("bomb.aiida, entry 'db.sqlite3' inflates (\\d+) bytes from (\\d+), more than 100"
                        + " times: a zip bomb")
                .matcher(message);
        assertTrue(m.matches(), message);
        assertTrue(Long.parseLong(m.group(1)) < (2L << 20), "stopped soon after the 1 MiB floor: " + message);
    }

    @Test
    void entriesOverlappingInTheFileAreRefused() throws IOException {
        Path file = work.resolve("overlap.aiida");
        Files.copy(aiida.archive(), file);
        byte[] bytes = Files.readAllBytes(file);
        // a second directory record pointing at the bytes of the first object: one block inflated twice
        List<ZipEntryRecord> objects = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file)) {
            ZipDirectory.locate(channel, "overlap").read(e -> {
                if (e.name().startsWith("repo/")) {
                    objects.add(e);
                }
            });
        }
        ZipEntryRecord first = objects.get(0);
        ZipEntryRecord second = objects.get(1);
        int record = centralRecord(bytes, second.name());
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(record + 42, (int) first.offset());
        Files.write(file, bytes);
        String message = refusal(file);
        assertTrue(
                message.equals("overlap.aiida: entries '" + first.name() + "' and '" + second.name()
                                + "' overlap in the file: a zip bomb, or a damaged zip")
                        || message.equals("overlap.aiida: entries '" + second.name() + "' and '" + first.name()
                                + "' overlap in the file: a zip bomb, or a damaged zip"),
                message);
    }

    @Test
    void entryInflatingPastItsDeclaredSizeIsRefused() throws IOException {
        Path file = work.resolve("understated.aiida");
        Files.copy(aiida.archive(), file);
        byte[] bytes = Files.readAllBytes(file);
        // the central directory's record of db.sqlite3 declares 1000 bytes instead of its real size
        int record = centralRecord(bytes, "db.sqlite3");
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(record + 24, 1000);
        Files.write(file, bytes);
        assertEquals(
                "understated.aiida, entry 'db.sqlite3' inflates to more than the 1000 bytes it declares: corrupt, or a"
                        + " zip bomb",
                refusal(file));
    }

    @Test
    void malformedNodeTypesAreRefusedNamingTheRow() throws IOException, SQLException {
        int n = 0;
        for (String type : List.of("data.core.int.Int", "data/../../evil.", "", "core.int.Int.")) {
            Path file = copy().sql("UPDATE db_dbnode SET node_type = '" + type + "' WHERE id = (SELECT min(id) FROM"
                            + " db_dbnode)")
                    .write("type-" + n++ + ".aiida");
            String message = refusal(file);
            assertTrue(
                    message.matches(Pattern.quote(file.getFileName() + ", db.sqlite3, db_dbnode row ") + "\\d+: "
                            + Pattern.quote("node_type '" + type + "' is malformed: a node type is dotted, starts"
                                    + " with 'data.' or 'process.' and ends with '.', e.g. data.core.int.Int.")),
                    message);
        }
    }

    @Test
    void linkToANodeTheArchiveLacksIsRefused() throws IOException, SQLException {
        Path file =
                copy().sql("UPDATE db_dblink SET input_id = 99999 WHERE id = 1").write("dangling.aiida");
        assertEquals(
                "dangling.aiida, db.sqlite3, db_dblink row 1: input_id names db_dbnode row 99999, which the archive"
                        + " does not hold",
                refusal(file));
    }

    /** The dangling link is read after the users, computers, groups and nodes are written. */
    @Test
    void anImportRefusedAtADanglingLinkLeavesNothing() throws Exception {
        Path file = copy().sql("UPDATE db_dblink SET input_id = 99999 WHERE id = (SELECT max(id) FROM db_dblink)")
                .write("dangling-import.aiida");
        Refusal refusal = importRefused(file);
        assertTrue(
                refusal.message().startsWith("dangling-import.aiida, db.sqlite3, db_dblink row ")
                        && refusal.message()
                                .endsWith(": input_id names db_dbnode row 99999, which the archive does not hold"),
                refusal.message());
        assertTrue(refusal.steps().contains("staging nodes"), "refused once the nodes were written: " + refusal);
    }

    @Test
    void objectTheArchiveLacksIsRefusedOnOpening() throws IOException, SQLException {
        String key = aiida.report()
                .get("files")
                .get(aiida.sample("retrieved"))
                .get("aiida.out")
                .asString();
        Path file = copy().drop("repo/" + key).write("no-object.aiida");
        String message = refusal(file);
        assertTrue(
                message.startsWith("no-object.aiida: node ")
                        && message.endsWith(
                                " has a file with key " + key + ", but the archive has no entry repo/" + key),
                message);
    }

    @Test
    void fileTreeWithAPathOutOfTheNodeIsRefused() throws IOException, SQLException {
        String key = aiida.report()
                .get("files")
                .get(aiida.sample("retrieved"))
                .get("aiida.out")
                .asString();
        Path file = copy().sql("UPDATE db_dbnode SET repository_metadata = '{\"o\":{\"..\":{\"k\":\"" + key
                        + "\"}}}' WHERE uuid = '" + aiida.sample("singlefile") + "'")
                .write("tree.aiida");
        String message = refusal(file);
        assertTrue(
                message.matches(Pattern.quote("tree.aiida, db.sqlite3, db_dbnode row ") + "\\d+: "
                        + Pattern.quote(
                                "repository_metadata has an entry named '..' (names are not empty, '.' or '..' and"
                                        + " hold no '/')")),
                message);
    }

    @Test
    void unknownNodeTypesAreKeptWithTheirAttributes() throws IOException, SQLException {
        String uuid = aiida.sample("structure");
        Path file = copy().sql("UPDATE db_dbnode SET node_type = 'data.someplugin.crystal.Crystal.', process_type ="
                        + " 'someplugin.crystal' WHERE uuid = '" + uuid + "'")
                .write("plugin.aiida");
        ArchiveContents read = ArchiveContents.read(file);
        JsonNode node = read.node(uuid);
        assertEquals("data.someplugin.crystal.Crystal.", node.get("node_type").asString());
        assertEquals("someplugin.crystal", node.get("process_type").asString());
        JsonNode reported = null;
        for (JsonNode n : aiida.report().get("rows").get("nodes")) {
            if (n.get("uuid").asString().equals(uuid)) {
                reported = n;
            }
        }
        assertEquals(reported.get("attributes"), node.get("attributes"));
        assertEquals(
                aiida.report().get("counts").get("nodes").asLong(),
                read.header().count(ArchivePart.NODES));
    }

    private static byte[] metadata(String field, String value) throws IOException {
        try (ZipFile zip = new ZipFile(aiida.archive().toFile());
                InputStream in = zip.getInputStream(zip.getEntry("metadata.json"))) {
            ObjectNode json = (ObjectNode) ArchiveContents.JSON.readTree(in.readAllBytes());
            json.put(field, value);
            return ArchiveContents.JSON.writeValueAsBytes(json);
        }
    }

    private static ZipEntryRecord record(Path file, String name) throws IOException {
        ZipEntryRecord[] found = new ZipEntryRecord[1];
        try (FileChannel channel = FileChannel.open(file)) {
            ZipDirectory.locate(channel, file.toString()).read(e -> {
                if (e.name().equals(name)) {
                    found[0] = e;
                }
            });
        }
        return found[0];
    }

    /** Where the central directory record of {@code name} starts. */
    private static int centralRecord(byte[] zip, String name) {
        byte[] encoded = name.getBytes(UTF_8);
        for (int i = zip.length - 46 - encoded.length; i >= 0; i--) {
            if (zip[i] == 'P'
                    && zip[i + 1] == 'K'
                    && zip[i + 2] == 1
                    && zip[i + 3] == 2
                    && Arrays.equals(zip, i + 46, i + 46 + encoded.length, encoded, 0, encoded.length)) {
                return i;
            }
        }
        throw new AssertionError("no central directory record of " + name);
    }
}
