package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;

/**
 * An archive that aiida-core 2.9.4 wrote of a graph it made by running real processes (a work chain
 * calling a calculation job, calc and work functions, data of every core type, a group, comments, logs)
 * reads as exactly what aiida-core's ORM held: every row of every part, and every object.
 */
class AiidaArchiveReaderIT {

    @RegisterExtension
    static final RealAiidaArchive aiida = new RealAiidaArchive();

    static ArchiveContents contents;

    @BeforeAll
    static void read() throws IOException {
        contents = ArchiveContents.read(aiida.archive());
    }

    private static JsonNode reportRows(ArchivePart part) {
        return aiida.report().get("rows").get(part.key());
    }

    @Test
    void headerCountsEveryPartExactly() {
        ArchiveHeader header = contents.header();
        assertEquals("aiida", header.format());
        assertEquals("main_0001", header.version());
        assertEquals("aiida-core 2.9.4", header.producer());
        for (ArchivePart part : ArchivePart.values()) {
            long reported = aiida.report().get("counts").get(part.key()).asLong();
            assertEquals(reported, header.count(part), "header count of " + part.key());
            long delivered = part == ArchivePart.OBJECTS
                    ? contents.objects().size()
                    : contents.rows(part).size();
            assertEquals(reported, delivered, "delivered " + part.key());
        }
        assertTrue(header.count(ArchivePart.NODES) >= 30, "the fixture has tens of nodes");
    }

    @Test
    void headerCarriesHowTheArchiveWasCreated() {
        Map<String, Object> parameters = contents.header().parameters();
        assertTrue(parameters.containsKey("entities"));
        assertNull(parameters.get("entities"), "an archive of everything has no starting set");
        assertEquals(true, parameters.get("include_comments"));
        assertEquals(true, parameters.get("include_logs"));
        assertEquals(false, parameters.get("include_authinfos"));
        Map<?, ?> rules = (Map<?, ?>) parameters.get("traversal_rules");
        assertEquals(12, rules.size());
        assertEquals(false, rules.get("input_calc_forward"));
        assertEquals(true, rules.get("create_backward"));
    }

    @Test
    void everyPartsRowsAreWhatAiidaHeld() {
        for (ArchivePart part : ArchivePart.ROWS) {
            SameRows.assertSameRows(part, reportRows(part), contents.rows(part));
        }
    }

    @Test
    void nodeCountsByTypeAreAiidas() {
        Map<String, Integer> byType = new TreeMap<>();
        contents.rows(ArchivePart.NODES)
                .forEach(n -> byType.merge(n.get("node_type").asString(), 1, Integer::sum));
        Map<String, Integer> reported = new TreeMap<>();
        aiida.report()
                .get("node_types")
                .properties()
                .forEach(e -> reported.put(e.getKey(), e.getValue().asInt()));
        assertEquals(reported, byType);
        for (String type : List.of(
                "data.core.int.Int.",
                "data.core.float.Float.",
                "data.core.str.Str.",
                "data.core.bool.Bool.",
                "data.core.dict.Dict.",
                "data.core.list.List.",
                "data.core.array.ArrayData.",
                "data.core.array.xy.XyData.",
                "data.core.structure.StructureData.",
                "data.core.singlefile.SinglefileData.",
                "data.core.folder.FolderData.",
                "data.core.remote.RemoteData.",
                "data.core.code.installed.InstalledCode.",
                "process.calculation.calcjob.CalcJobNode.",
                "process.calculation.calcfunction.CalcFunctionNode.",
                "process.workflow.workchain.WorkChainNode.",
                "process.workflow.workfunction.WorkFunctionNode.")) {
            assertTrue(byType.containsKey(type), "the fixture holds a " + type);
        }
    }

    @Test
    void objectsAreTheFilesAiidaHeld() throws NoSuchAlgorithmException {
        Map<String, Long> reported = new TreeMap<>();
        aiida.report()
                .get("objects")
                .properties()
                .forEach(e -> reported.put(e.getKey(), e.getValue().asLong()));
        Map<String, Long> read = new TreeMap<>();
        for (Map.Entry<String, byte[]> o : contents.objects().entrySet()) {
            read.put(o.getKey(), (long) o.getValue().length);
            assertEquals(o.getKey(), sha256(o.getValue()), "the key of an object is its SHA-256");
        }
        assertEquals(reported, read);
    }

    @Test
    void structureDataKeepsCellSitesAndKinds() {
        JsonNode structure = contents.node(aiida.sample("structure"));
        assertEquals(
                "data.core.structure.StructureData.", structure.get("node_type").asString());
        assertEquals("BaTiO3 (cubic, incomplete)", structure.get("label").asString());
        JsonNode attributes = structure.get("attributes");
        assertEquals(
                ArchiveContents.JSON.readTree("[[4.0,0.0,0.0],[0.0,4.0,0.0],[0.0,0.0,4.0]]"), attributes.get("cell"));
        assertEquals(3, attributes.get("sites").size());
        assertEquals("Ti", attributes.get("sites").get(1).get("kind_name").asString());
        assertEquals(
                ArchiveContents.JSON.readTree("[2.0,2.0,2.0]"),
                attributes.get("sites").get(1).get("position"));
        List<String> kinds = new ArrayList<>();
        attributes.get("kinds").forEach(k -> kinds.add(k.get("name").asString()));
        assertEquals(List.of("Ba", "Ti", "O"), kinds);
        assertTrue(attributes.get("pbc1").asBoolean());
        JsonNode reported = node(aiida.sample("structure")).get("attributes");
        assertEquals(reported, attributes);
    }

    @Test
    void arrayDataFilesAreItsNpyArrays() {
        for (String sample : List.of("array", "xy")) {
            String uuid = aiida.sample(sample);
            JsonNode node = contents.node(uuid);
            Map<String, String> files = files(node.get("repository_metadata"));
            Map<String, String> reported = new TreeMap<>();
            aiida.report()
                    .get("files")
                    .get(uuid)
                    .properties()
                    .forEach(e -> reported.put(e.getKey(), e.getValue().asString()));
            assertEquals(reported, files, "the .npy files of the " + sample);
            for (Map.Entry<String, String> file : files.entrySet()) {
                assertTrue(file.getKey().endsWith(".npy"), file.getKey());
                byte[] npy = contents.objects().get(file.getValue());
                assertNotNull(npy, "object of " + file.getKey());
                assertArrayEquals(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'}, Arrays.copyOf(npy, 6));
                String array = file.getKey().substring(0, file.getKey().length() - ".npy".length());
                assertTrue(node.get("attributes").has("array|" + array), "attribute array|" + array);
            }
        }
        JsonNode array = contents.node(aiida.sample("array")).get("attributes");
        assertEquals(ArchiveContents.JSON.readTree("[3,3,3]"), array.get("array|cells"));
        assertEquals(ArchiveContents.JSON.readTree("[3]"), array.get("array|volumes"));
    }

    @Test
    void calcJobsRetrievedFilesArrive() {
        String calcjob = aiida.sample("calcjob");
        String retrieved = aiida.sample("retrieved");
        assertEquals(
                1,
                contents.rows(ArchivePart.LINKS).stream()
                        .filter(l -> l.get("input").asString().equals(calcjob)
                                && l.get("output").asString().equals(retrieved)
                                && l.get("type").asString().equals("create")
                                && l.get("label").asString().equals("retrieved"))
                        .count(),
                "the calculation job created its retrieved folder");
        Map<String, String> files = files(contents.node(retrieved).get("repository_metadata"));
        assertEquals(
                List.of("_scheduler-stderr.txt", "_scheduler-stdout.txt", "aiida.out"), List.copyOf(files.keySet()));
        assertEquals("42\n", new String(contents.objects().get(files.get("aiida.out")), UTF_8), "20 + 22");
        JsonNode job = contents.node(calcjob);
        assertEquals(
                "aiida.calculations:core.arithmetic.add",
                job.get("process_type").asString());
        assertEquals(0, job.get("attributes").get("exit_status").asInt());
        assertFalse(job.get("attributes").has("checkpoints"), "AiiDA strips checkpoints on export");
        assertTrue(files(job.get("repository_metadata")).containsKey(".aiida/calcinfo.json"));
        assertNotNull(job.get("computer").asString(), "a calculation job ran on a computer");
    }

    @Test
    void groupKeepsItsExtrasAndMembers() {
        JsonNode group = contents.byUuid(ArchivePart.GROUPS).get(aiida.sample("group"));
        assertEquals("cairn-fixture", group.get("label").asString());
        assertEquals("core", group.get("type_string").asString());
        assertEquals(
                ArchiveContents.JSON.readTree(
                        "{\"project\":\"cairn\",\"round\":2,\"owners\":[\"ada\",\"grace\"],\"meta\":{\"k\":null}}"),
                group.get("extras"));
        assertEquals(
                6,
                contents.rows(ArchivePart.GROUP_MEMBERS).stream()
                        .filter(m -> m.get("group").asString().equals(aiida.sample("group")))
                        .count());
    }

    @Test
    void aiidasPrivateExtrasAreDroppedAndOthersKept(@TempDir Path work) throws IOException, SQLException {
        // the archive itself has them: aiida-core exports its hashes
        Path db = work.resolve("db.sqlite3");
        try (ZipFile zip = new ZipFile(aiida.archive().toFile())) {
            Files.copy(zip.getInputStream(zip.getEntry("db.sqlite3")), db);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM db_dbnode WHERE extras LIKE '%_aiida_hash%'")) {
            r.next();
            assertTrue(r.getLong(1) > 10, "aiida-core exported the hashes of its nodes");
        }
        for (JsonNode node : contents.rows(ArchivePart.NODES)) {
            node.get("extras").propertyNames().forEach(k -> assertFalse(k.startsWith("_aiida_"), k + " on " + node));
        }
        JsonNode flagged = contents.node(aiida.sample("bool_with_extras")).get("extras");
        assertEquals(
                ArchiveContents.JSON.readTree("{\"reviewed\":true,\"score\":0.5,\"tags\":[\"x\",\"y\"]}"), flagged);
    }

    @Test
    void referencesAreUuidsAndEmailsAndTimesCarryAnOffset() {
        String email = contents.rows(ArchivePart.USERS).get(0).get("email").asString();
        assertEquals("fixture@cairn.example", email);
        for (JsonNode node : contents.rows(ArchivePart.NODES)) {
            assertEquals(email, node.get("user").asString());
            assertTrue(
                    node.get("ctime").asString().endsWith("Z"),
                    node.get("ctime").asString());
            assertFalse(node.has("id"), "no installation's ids");
            assertFalse(node.has("user_id") || node.has("dbcomputer_id"));
        }
        for (JsonNode log : contents.rows(ArchivePart.LOGS)) {
            assertTrue(log.has("logger_name") && log.has("level_name") && log.has("node"), log.toString());
        }
        JsonNode fixtureLog = contents.rows(ArchivePart.LOGS).stream()
                .filter(l -> l.get("logger_name").asString().equals("cairn.fixture"))
                .findFirst()
                .orElseThrow();
        assertEquals("WARNING", fixtureLog.get("level_name").asString());
        assertEquals(aiida.sample("calcjob"), fixtureLog.get("node").asString());
        assertEquals(ArchiveContents.JSON.readTree("{\"attempt\":1}"), fixtureLog.get("metadata"));
        JsonNode remote = contents.node(aiida.sample("remote"));
        assertNotNull(remote.get("attributes").get("remote_path").asString());
        assertNull(contents.node(aiida.sample("structure")).get("computer").asString(null));
    }

    @Test
    void scratchFilesAreRemovedOnClose(@TempDir Path scratch) throws IOException {
        try (AiidaArchiveReader reader =
                AiidaArchiveReader.open(aiida.archive(), AiidaArchiveLimits.defaults(), scratch)) {
            try (Stream<Path> listing = Files.list(scratch)) {
                assertEquals(1, listing.count(), "one scratch folder while open");
            }
            assertEquals(
                    aiida.report().get("counts").get("nodes").asLong(),
                    reader.header().count(ArchivePart.NODES));
        }
        try (Stream<Path> listing = Files.list(scratch)) {
            assertEquals(0, listing.count(), "nothing left after close");
        }
    }

    private static JsonNode node(String uuid) {
        for (JsonNode n : reportRows(ArchivePart.NODES)) {
            if (n.get("uuid").asString().equals(uuid)) {
                return n;
            }
        }
        throw new AssertionError("no node " + uuid + " in the report");
    }

    /** {path: key} of a file tree. */
    static Map<String, String> files(JsonNode tree) {
        Map<String, String> out = new TreeMap<>();
        walk(tree, "", out);
        return out;
    }

    private static void walk(JsonNode entry, String path, Map<String, String> out) {
        if (entry.has("k")) {
            out.put(path, entry.get("k").asString());
        } else if (entry.has("o")) {
            entry.get("o")
                    .properties()
                    .forEach(e -> walk(e.getValue(), path.isEmpty() ? e.getKey() : path + "/" + e.getKey(), out));
        }
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
