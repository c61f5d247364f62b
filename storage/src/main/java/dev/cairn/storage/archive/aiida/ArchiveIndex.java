package dev.cairn.storage.archive.aiida;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * A reader's scratch database, on disk in its temporary folder so that memory stays flat however large the
 * archive: the zip's object entries, the keys the nodes name, and (attached) the archive's own
 * {@code db.sqlite3}, extracted beside it. One connection serves all three.
 */
final class ArchiveIndex implements AutoCloseable {

    private final Connection c;
    private final String file;
    private PreparedStatement addEntry;

    private ArchiveIndex(Connection c, String file) {
        this.c = c;
        this.file = file;
    }

    /** A new index in {@code path}; {@code file} names the archive in messages. */
    static ArchiveIndex create(Path path, String file) throws SQLException {
        Connection c = ScratchSqlite.open(path);
        try (Statement s = c.createStatement()) {
            // every entry, by name; key is the object key of repo/<key>, null for the others
            s.execute("CREATE TABLE entries (name TEXT PRIMARY KEY, key TEXT UNIQUE, method INTEGER, flags INTEGER,"
                    + " crc INTEGER, csize INTEGER, size INTEGER, offset INTEGER) WITHOUT ROWID");
            s.execute("CREATE TABLE object_keys (key TEXT PRIMARY KEY, node TEXT NOT NULL) WITHOUT ROWID");
            c.setAutoCommit(false);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new ArchiveIndex(c, file);
    }

    Connection connection() {
        return c;
    }

    /**
     * Records an entry, with its object {@code key} if it is {@code repo/<key>} (else null); a second
     * entry of the same name is refused.
     */
    void addEntry(String key, ZipEntryRecord e) throws SQLException {
        if (addEntry == null) {
            addEntry = c.prepareStatement("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        }
        addEntry.setString(1, e.name());
        addEntry.setString(2, key);
        addEntry.setInt(3, e.method());
        addEntry.setInt(4, e.flags());
        addEntry.setLong(5, e.crc());
        addEntry.setLong(6, e.compressedSize());
        addEntry.setLong(7, e.size());
        addEntry.setLong(8, e.offset());
        if (addEntry.executeUpdate() == 0) {
            throw new InvalidArchiveException(file + ": entry '" + e.name() + "' appears twice");
        }
    }

    /**
     * Refuses entries whose bytes overlap: a zip bomb's way of inflating one compressed block as many
     * entries. Each entry takes at least its local header, name and data before the next may start.
     */
    void refuseOverlaps() throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT name, next FROM (SELECT name, offset, csize,"
                        + " lead(name) OVER w AS next, lead(offset) OVER w AS next_offset FROM entries"
                        + " WINDOW w AS (ORDER BY offset)) WHERE next_offset < offset + 30 + length(CAST(name AS BLOB))"
                        + " + csize LIMIT 1")) {
            if (r.next()) {
                throw new InvalidArchiveException(file + ": entries '" + r.getString(1) + "' and '" + r.getString(2)
                        + "' overlap in the file: a zip bomb, or a damaged zip");
            }
        }
    }

    /** Attaches the archive's extracted database, after the entries are in; the rows' queries read it. */
    void attach(Path database) throws SQLException {
        if (addEntry != null) {
            addEntry.close();
        }
        c.commit();
        c.setAutoCommit(true);
        try (PreparedStatement p = c.prepareStatement("ATTACH DATABASE ? AS archive")) {
            p.setString(1, database.toString());
            p.execute();
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM archive.sqlite_master")) {
                r.next();
            }
        } catch (SQLException e) {
            throw new InvalidArchiveException(file + ": db.sqlite3 is not an SQLite database: " + e.getMessage(), e);
        }
    }

    /** Rows per part, exactly: the same database the rows are read from. */
    Map<ArchivePart, Long> countRows() throws SQLException {
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        for (ArchivePart part : ArchivePart.ROWS) {
            String table = ArchiveRows.TABLES.get(part);
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM archive." + table)) {
                r.next();
                counts.put(part, r.getLong(1));
            } catch (SQLException e) {
                throw new InvalidArchiveException(
                        file + ": db.sqlite3 is not the database of an AiiDA main_0001" + " archive (" + table + ": "
                                + e.getMessage() + ")",
                        e);
            }
        }
        return counts;
    }

    /**
     * Walks every node's type and file tree, and records the keys they name; refuses a malformed one and a
     * key without its entry. Returns the number of distinct keys: the objects the archive will deliver.
     */
    long indexKeys() throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT id, uuid, node_type, repository_metadata FROM archive.db_dbnode ORDER BY id");
                PreparedStatement add = c.prepareStatement("INSERT OR IGNORE INTO object_keys VALUES (?, ?)")) {
            while (r.next()) {
                Cells cells = new Cells(r, file + ", db.sqlite3, db_dbnode");
                String uuid = cells.uuid("uuid");
                ArchiveRows.nodeType(cells);
                JsonNode tree = tree(cells, r.getString("repository_metadata"));
                SQLException[] failed = new SQLException[1];
                String why = RepositoryTree.walk(tree, key -> {
                    try {
                        add.setString(1, key);
                        add.setString(2, uuid);
                        add.executeUpdate();
                    } catch (SQLException e) {
                        failed[0] = e;
                    }
                });
                if (failed[0] != null) {
                    throw failed[0];
                }
                if (why != null) {
                    throw cells.invalid("repository_metadata " + why);
                }
            }
        }
        c.commit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT k.key, k.node FROM object_keys k"
                        + " LEFT JOIN entries e ON e.key = k.key WHERE e.key IS NULL LIMIT 1")) {
            if (r.next()) {
                throw new InvalidArchiveException(file + ": node " + r.getString(2) + " has a file with key "
                        + r.getString(1) + ", but the archive has no entry repo/" + r.getString(1));
            }
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM object_keys")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static JsonNode tree(Cells cells, String json) {
        if (json == null) {
            throw cells.invalid("repository_metadata is null");
        }
        try {
            return AiidaJson.MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw cells.invalid("repository_metadata is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** The object entries some node names, in the order they lie in the file (reads go forwards). */
    ResultSet objects(Statement s) throws SQLException {
        return s.executeQuery("SELECT e.key, e.method, e.flags, e.crc, e.csize, e.size, e.offset"
                + " FROM object_keys k JOIN entries e ON e.key = k.key ORDER BY e.offset");
    }

    @Override
    public void close() throws SQLException {
        c.close();
    }
}
