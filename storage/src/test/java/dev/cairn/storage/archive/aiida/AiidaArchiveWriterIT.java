package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchivePart;

/**
 * An archive written by {@link AiidaArchiveWriter} from the rows and objects {@link AiidaArchiveReader}
 * read out of one aiida-core wrote (a round trip) is imported by aiida-core 2.9.4 with {@code verdi archive
 * import}, {@code verdi archive info} reports the same counts as for the original, the imported profile
 * holds the same rows, and the file is laid out as aiida-core lays out its own.
 */
class AiidaArchiveWriterIT {

    @RegisterExtension
    static final RealAiidaArchive aiida = new RealAiidaArchive();

    @TempDir
    static Path work;

    static Path written;
    static JsonNode imported;

    @BeforeAll
    static void roundTrip() throws IOException, InterruptedException {
        written = work.resolve("round-trip.aiida");
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(aiida.archive());
                AiidaArchiveWriter writer = new AiidaArchiveWriter(written)) {
            ArchiveCopy.copy(reader, writer);
        }
        imported = AiidaPython.importArchive(written, work.resolve("import-home"));
    }

    private static long count(JsonNode report, String part) {
        return report.get("counts").get(part).asLong();
    }

    @Test
    void verdiArchiveInfoReportsTheSameCountsAsForAiidasOwn() {
        JsonNode ours = imported.get("info");
        JsonNode theirs = aiida.report().get("info");
        assertEquals(theirs.get("entities"), ours.get("entities"));
        assertEquals(theirs.get("repository"), ours.get("repository"));
        assertEquals("main_0001", ours.get("metadata").get("export_version").asString());
        assertEquals(
                theirs.get("metadata").get("creation_parameters"),
                ours.get("metadata").get("creation_parameters"));
    }

    @Test
    void aiidaImportsEveryRowAndObject() {
        JsonNode built = aiida.report();
        JsonNode before = imported.get("before");
        for (String part : List.of("nodes", "links", "comments", "logs", "objects")) {
            assertEquals(
                    count(built, part), count(imported, part) - before.get(part).asLong(), part);
        }
        assertEquals(built.get("node_types"), imported.get("node_types"));
        // aiida-core adds an import group holding every imported node
        assertEquals(
                count(built, "groups") + 1,
                count(imported, "groups") - before.get("groups").asLong());
        assertEquals(
                count(built, "group_members") + count(built, "nodes"),
                count(imported, "group_members") - before.get("group_members").asLong());
        // presto's localhost is another computer of the same label: the archive's is imported beside it
        assertEquals(
                count(built, "computers"),
                count(imported, "computers") - before.get("computers").asLong());
        // the same email: the user is matched, not added
        assertEquals(1, count(imported, "users"));
    }

    @Test
    void aiidaHoldsTheSameNodesLinksCommentsLogsAndObjects() {
        JsonNode built = aiida.report().get("rows");
        JsonNode rows = imported.get("rows");
        for (ArchivePart part : List.of(ArchivePart.NODES, ArchivePart.LINKS, ArchivePart.COMMENTS, ArchivePart.LOGS)) {
            SameRows.assertSameRows(part, built.get(part.key()), rows.get(part.key()));
        }
        String importGroup = imported.get("import_group").asString();
        List<JsonNode> members = new ArrayList<>();
        rows.get("group_members").forEach(m -> {
            if (!m.get("group").asString().equals(importGroup)) {
                members.add(m);
            }
        });
        SameRows.assertSameRows(ArchivePart.GROUP_MEMBERS, built.get("group_members"), members);
        JsonNode group = null;
        for (JsonNode g : rows.get("groups")) {
            if (g.get("uuid").asString().equals(aiida.sample("group"))) {
                group = g;
            }
        }
        assertEquals(built.get("groups").get(0), group);
        assertEquals(aiida.report().get("objects"), imported.get("objects"));
    }

    @Test
    void writtenArchiveReadsBackAsTheSameRowsAndObjects() throws IOException {
        ArchiveContents original = ArchiveContents.read(aiida.archive());
        ArchiveContents copy = ArchiveContents.read(written);
        assertEquals(original.header().counts(), copy.header().counts());
        assertEquals(original.header().parameters(), copy.header().parameters());
        for (ArchivePart part : ArchivePart.ROWS) {
            assertEquals(original.rows(part), copy.rows(part), part.key());
        }
        assertEquals(original.objects().keySet(), copy.objects().keySet());
        original.objects()
                .forEach((key, bytes) -> assertArrayEquals(bytes, copy.objects().get(key), key));
    }

    @Test
    void databaseHasTheSchemaAiidaCreates(@TempDir Path dir) throws IOException, SQLException {
        assertEquals(
                schema(database(aiida.archive(), dir.resolve("theirs.sqlite3"))),
                schema(database(written, dir.resolve("ours.sqlite3"))));
    }

    @Test
    void idsAreTheWritersOwnAndLinksAndMembersCountFromOne(@TempDir Path dir) throws IOException, SQLException {
        Path db = database(written, dir.resolve("db.sqlite3"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            for (String table : List.of("db_dbuser", "db_dbnode", "db_dblink", "db_dbgroup_dbnodes", "db_dblog")) {
                try (ResultSet r = s.executeQuery("SELECT min(id), max(id), count(*) FROM " + table)) {
                    r.next();
                    assertEquals(1, r.getLong(1), table);
                    assertEquals(r.getLong(3), r.getLong(2), table + " has no gaps");
                }
            }
            try (ResultSet r = s.executeQuery("SELECT uuid, ctime, attributes FROM db_dbnode ORDER BY id LIMIT 1")) {
                r.next();
                assertEquals(36, r.getString(1).length(), "uuids as aiida-core writes them");
                assertTrue(
                        r.getString(2).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6}"), r.getString(2));
            }
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM db_dbsetting")) {
                r.next();
                assertEquals(0, r.getLong(1));
            }
        }
    }

    @Test
    void zipIsLaidOutAsAiidaLaysItOut() throws IOException {
        // the central directory lists metadata.json and db.sqlite3 first, as aiida-core's reader expects
        try (ZipFile zip = new ZipFile(written.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).toList();
            assertEquals(List.of("metadata.json", "db.sqlite3"), names.subList(0, 2));
            assertEquals(0, zip.getEntry("metadata.json").getMethod(), "metadata.json is stored");
            assertEquals(8, zip.getEntry("db.sqlite3").getMethod(), "db.sqlite3 is deflated");
            assertTrue(names.subList(2, names.size()).stream().allMatch(n -> n.matches("repo/[0-9a-f]{64}")));
            assertEquals(aiida.report().get("objects").size(), names.size() - 2);
        }
        // but the objects lie first in the file, then the database, then the metadata
        List<ZipEntryRecord> records = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(written, StandardOpenOption.READ)) {
            ZipDirectory.locate(channel, "written").read(records::add);
        }
        List<String> physical = records.stream()
                .sorted(Comparator.comparingLong(ZipEntryRecord::offset))
                .map(ZipEntryRecord::name)
                .toList();
        assertEquals("metadata.json", physical.getLast());
        assertEquals("db.sqlite3", physical.get(physical.size() - 2));
        JsonNode metadata;
        try (ZipFile zip = new ZipFile(written.toFile());
                InputStream in = zip.getInputStream(zip.getEntry("metadata.json"))) {
            metadata = ArchiveContents.JSON.readTree(new String(in.readAllBytes(), UTF_8));
        }
        Set<String> keys = Set.copyOf(metadata.propertyNames());
        assertEquals(
                Set.of(
                        "export_version",
                        "aiida_version",
                        "key_format",
                        "compression",
                        "ctime",
                        "creation_parameters",
                        "conversion_info"),
                keys);
        assertEquals("sha256", metadata.get("key_format").asString());
        assertEquals(
                12,
                metadata.get("creation_parameters").get("graph_traversal_rules").size());
    }

    private static Path database(Path archive, Path to) throws IOException {
        try (ZipFile zip = new ZipFile(archive.toFile());
                InputStream in = zip.getInputStream(zip.getEntry("db.sqlite3"))) {
            Files.copy(in, to);
        }
        return to;
    }

    /**
     * Every table's columns, foreign keys and indexes (with their columns and uniqueness), as SQLite
     * reports them. Not the statements' text: aiida-core itself orders a table's constraints and its
     * indexes differently from one archive to the next (SQLAlchemy iterates sets).
     */
    private static Map<String, List<String>> schema(Path db) throws SQLException {
        Map<String, List<String>> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            for (String table : tables) {
                out.put(table + " columns", pragma(s, "table_info(" + table + ")"));
                out.put(table + " foreign keys", sorted(pragma(s, "foreign_key_list(" + table + ")"), 2));
                List<String> indexes = new ArrayList<>();
                for (String index : pragma(s, "index_list(" + table + ")")) {
                    String[] f = index.split("\\|", -1);
                    // name|unique|origin, then the indexed columns; SQLite numbers the indexes of UNIQUE
                    // constraints in their order of declaration, so those are told apart by columns only
                    String name = f[1].startsWith("sqlite_autoindex_") ? "(unique constraint)" : f[1];
                    indexes.add(name + "|" + f[2] + "|" + f[3] + " " + pragma(s, "index_info(" + f[1] + ")"));
                }
                out.put(table + " indexes", sorted(indexes, 0));
            }
        }
        return out;
    }

    private static List<String> pragma(Statement s, String pragma) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet r = s.executeQuery("PRAGMA " + pragma)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? "|" : "").append(r.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** The rows sorted, their first {@code skip} fields (ids that follow the declaration order) dropped. */
    private static List<String> sorted(List<String> rows, int skip) {
        return rows.stream()
                .map(r -> String.join("|", List.of(r.split("\\|", -1)).subList(skip, r.split("\\|", -1).length)))
                .sorted()
                .toList();
    }
}
