package dev.cairn.cli.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/**
 * A file's header is read here, with no server: Cairn's from its first frame, an AiiDA zip's from its
 * metadata.json and its database; anything else, or a file cut inside its header, is refused by name.
 */
class ArchiveFilesTest {

    @TempDir
    Path dir;

    @Test
    void aCairnArchivesHeaderIsReadInTheServersShape() throws Exception {
        Path file =
                Files.write(dir.resolve("a.cairn"), ArchiveMeterTest.archive().bytes(true));
        ObjectNode header = ArchiveFiles.header(file);
        assertEquals("cairn", header.get("format").asString());
        assertEquals("1", header.get("version").asString());
        assertEquals("cairn test", header.get("producer").asString());
        assertEquals(25, header.get("counts").get("nodes").asLong());
        assertEquals(3, header.get("counts").get("objects").asLong());
        assertTrue(header.get("parameters").get("entities").isNull(), header.toString());
    }

    @Test
    void anAiidaArchiveIsReadFromItsMetadataAndItsDatabase() throws Exception {
        Path db = dir.resolve("db.sqlite3");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            for (String table : List.of("db_dbuser", "db_dbnode", "db_dblink")) {
                s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY)");
            }
            s.execute("INSERT INTO db_dbnode (id) VALUES (1), (2), (3)");
            s.execute("INSERT INTO db_dblink (id) VALUES (1), (2)");
            s.execute("INSERT INTO db_dbuser (id) VALUES (1)");
        }
        Path file = dir.resolve("a.aiida");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            entry(zip, "metadata.json", """
                    {"export_version": "main_0001", "aiida_version": "2.6.3", "key_format": "sha256",
                     "ctime": "2026-11-24T22:35:02.123456", "creation_parameters": {"include_logs": true}}""".getBytes(StandardCharsets.UTF_8));
            entry(zip, "db.sqlite3", Files.readAllBytes(db));
            entry(zip, "repo/" + "a".repeat(64), new byte[] {1});
            entry(zip, "repo/" + "b".repeat(64), new byte[] {2});
        }
        ObjectNode header = ArchiveFiles.header(file);
        assertEquals("aiida", header.get("format").asString());
        assertEquals("main_0001", header.get("version").asString());
        assertEquals("aiida-core 2.6.3", header.get("producer").asString());
        assertEquals(3, header.get("counts").get("nodes").asLong(), header.toString());
        assertEquals(2, header.get("counts").get("links").asLong(), header.toString());
        assertEquals(2, header.get("counts").get("objects").asLong(), header.toString());
        assertTrue(header.get("parameters").get("include_logs").asBoolean());
    }

    private static void entry(ZipOutputStream zip, String name, byte[] content) throws Exception {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(content);
        zip.closeEntry();
    }

    @Test
    void aFileOfNoFormatATruncatedOneAndAMissingOneAreRefusedByName() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "these are notes, not an archive");
        CliException notAnArchive = assertThrows(CliException.class, () -> ArchiveFiles.header(text));
        assertEquals(ExitCodes.USAGE, notAnArchive.exitCode());
        assertTrue(notAnArchive.getMessage().contains("is not an archive"), notAnArchive.getMessage());

        byte[] whole = ArchiveMeterTest.archive().bytes(true);
        Path cut = Files.write(dir.resolve("cut.cairn"), Arrays.copyOf(whole, 30));
        CliException truncated = assertThrows(CliException.class, () -> ArchiveFiles.header(cut));
        assertTrue(truncated.getMessage().contains("is truncated"), truncated.getMessage());

        CliException missing = assertThrows(CliException.class, () -> ArchiveFiles.header(dir.resolve("none")));
        assertEquals(ExitCodes.USAGE, missing.exitCode());
        assertTrue(missing.getMessage().startsWith("no such file"), missing.getMessage());
    }
}
