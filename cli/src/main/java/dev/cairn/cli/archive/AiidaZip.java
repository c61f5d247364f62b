package dev.cairn.cli.archive;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

/**
 * What an AiiDA archive ({@code .aiida}, a zip) says of itself: {@code metadata.json} (its format version,
 * the aiida-core that wrote it, when, how), its rows counted in its {@code db.sqlite3} (copied out to a
 * temporary file, as SQLite reads files) and its objects, one {@code repo/} entry each. The counts are named
 * as Cairn's parts are, so both formats print alike.
 */
final class AiidaZip {

    /** Cairn's part names and the tables of AiiDA's archive database that hold their rows. */
    private static final Map<String, String> TABLES = tables();

    private AiidaZip() {}

    private static Map<String, String> tables() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("users", "db_dbuser");
        t.put("computers", "db_dbcomputer");
        t.put("authinfos", "db_dbauthinfo");
        t.put("groups", "db_dbgroup");
        t.put("nodes", "db_dbnode");
        t.put("links", "db_dblink");
        t.put("group_members", "db_dbgroup_dbnodes");
        t.put("comments", "db_dbcomment");
        t.put("logs", "db_dblog");
        return t;
    }

    static ObjectNode header(Path file) throws IOException {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry metadata = zip.getEntry("metadata.json");
            if (metadata == null) {
                throw CairnFrames.invalid(file + " is a zip without metadata.json: not an AiiDA archive");
            }
            JsonNode meta;
            try (InputStream in = zip.getInputStream(metadata)) {
                meta = JsonTrees.MAPPER.readTree(in);
            } catch (JacksonException e) {
                throw CairnFrames.invalid(file + ": its metadata.json is not JSON");
            }
            ObjectNode out = JsonTrees.object();
            out.put("format", "aiida");
            out.put("version", meta.path("export_version").asString("unknown"));
            out.put("producer", "aiida-core " + meta.path("aiida_version").asString("unknown"));
            out.set("created", meta.get("ctime"));
            out.set("parameters", meta.get("creation_parameters"));
            out.set("counts", counts(zip, file));
            return out;
        } catch (ZipException e) {
            throw CairnFrames.invalid(file + " is not a readable zip: " + e.getMessage());
        }
    }

    private static ObjectNode counts(ZipFile zip, Path file) throws IOException {
        ObjectNode counts = JsonTrees.object();
        ZipEntry db = zip.getEntry("db.sqlite3");
        if (db != null) {
            Path copy = Files.createTempFile("cairn-aiida-", ".sqlite3");
            try (InputStream in = zip.getInputStream(db)) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
                countRows(copy, counts, file);
            } finally {
                Files.deleteIfExists(copy);
            }
        }
        long objects = 0;
        for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
            ZipEntry entry = e.nextElement();
            if (entry.getName().startsWith("repo/") && !entry.isDirectory()) {
                objects++;
            }
        }
        counts.put("objects", objects);
        return counts;
    }

    private static void countRows(Path db, ObjectNode counts, Path file) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            for (Map.Entry<String, String> t : TABLES.entrySet()) {
                try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + t.getValue())) {
                    r.next();
                    counts.put(t.getKey(), r.getLong(1));
                } catch (SQLException missing) {
                    // an older schema without this table: the count is left out
                }
            }
        } catch (SQLException e) {
            throw new CliException(
                    ExitCodes.USAGE, file + ": its db.sqlite3 cannot be read: " + e.getMessage(), null, e);
        }
    }
}
