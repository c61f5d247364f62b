package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.EnumMap;
import java.util.Map;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchivePart;

/**
 * The {@code db.sqlite3} of an archive being written: AiiDA's schema, created by its own statements, and
 * Cairn's rows put into its tables. Ids are this database's own, given in the order rows arrive (links and
 * group members numbered from 1, as AiiDA numbers them); a row's uuids and emails are looked up through
 * the unique indexes of the rows written before it, so nothing grows on the heap with the archive.
 */
final class ArchiveDatabase implements AutoCloseable {

    private static final String SCHEMA = "main_0001.sql";

    private final Connection c;
    private final Map<ArchivePart, PreparedStatement> inserts = new EnumMap<>(ArchivePart.class);
    private final PreparedStatement userByEmail;
    private final PreparedStatement computerByUuid;
    private final PreparedStatement groupByUuid;
    private final PreparedStatement nodeByUuid;
    private final PreparedStatement nameKey;
    private final PreparedStatement writeKey;

    private ArchiveDatabase(Connection c) throws SQLException {
        this.c = c;
        userByEmail = c.prepareStatement("SELECT id FROM db_dbuser WHERE email = ?");
        computerByUuid = c.prepareStatement("SELECT id FROM db_dbcomputer WHERE uuid = ?");
        groupByUuid = c.prepareStatement("SELECT id FROM db_dbgroup WHERE uuid = ?");
        nodeByUuid = c.prepareStatement("SELECT id FROM db_dbnode WHERE uuid = ?");
        nameKey = c.prepareStatement("INSERT OR IGNORE INTO temp.named_keys VALUES (?, ?)");
        writeKey = c.prepareStatement("INSERT OR IGNORE INTO temp.written_keys VALUES (?)");
        inserts.put(
                ArchivePart.USERS,
                c.prepareStatement(
                        "INSERT INTO db_dbuser (email, first_name, last_name, institution) VALUES (?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.COMPUTERS,
                c.prepareStatement("INSERT INTO db_dbcomputer (uuid, label, hostname, description, scheduler_type,"
                        + " transport_type, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.AUTHINFOS,
                c.prepareStatement("INSERT INTO db_dbauthinfo (aiidauser_id, dbcomputer_id, metadata, auth_params,"
                        + " enabled) VALUES (?, ?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.GROUPS,
                c.prepareStatement("INSERT INTO db_dbgroup (uuid, label, type_string, time, description, extras,"
                        + " user_id) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.NODES,
                c.prepareStatement("INSERT INTO db_dbnode (uuid, node_type, process_type, label, description, ctime,"
                        + " mtime, attributes, extras, repository_metadata, dbcomputer_id, user_id)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.LINKS,
                c.prepareStatement("INSERT INTO db_dblink (input_id, output_id, label, type) VALUES (?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.GROUP_MEMBERS,
                c.prepareStatement("INSERT INTO db_dbgroup_dbnodes (dbnode_id, dbgroup_id) VALUES (?, ?)"));
        inserts.put(
                ArchivePart.COMMENTS,
                c.prepareStatement("INSERT INTO db_dbcomment (uuid, dbnode_id, ctime, mtime, user_id, content)"
                        + " VALUES (?, ?, ?, ?, ?, ?)"));
        inserts.put(
                ArchivePart.LOGS,
                c.prepareStatement("INSERT INTO db_dblog (uuid, time, loggername, levelname, dbnode_id, message,"
                        + " metadata) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    }

    /** A new database at {@code path} with AiiDA's schema, in one open transaction until {@link #commit}. */
    static ArchiveDatabase create(Path path) throws IOException, SQLException {
        Connection c = ScratchSqlite.open(path);
        try {
            try (Statement s = c.createStatement()) {
                for (String statement : schema()) {
                    s.execute(statement);
                }
                // the keys the nodes name, to check each was written: a temporary table stays out of the file
                s.execute("CREATE TEMP TABLE named_keys (key TEXT PRIMARY KEY, node TEXT NOT NULL) WITHOUT ROWID");
                s.execute("CREATE TEMP TABLE written_keys (key TEXT PRIMARY KEY) WITHOUT ROWID");
            }
            c.setAutoCommit(false);
            return new ArchiveDatabase(c);
        } catch (SQLException | IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static String[] schema() throws IOException {
        try (InputStream in = ArchiveDatabase.class.getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IOException("resource " + SCHEMA + " is missing from the class path");
            }
            String text = new String(in.readAllBytes(), UTF_8).replaceAll("(?m)^--.*\\n", "");
            return text.strip().split(";\\n+");
        }
    }

    /** Inserts one row of {@code part}; {@code where} names it in messages. */
    void insert(ArchivePart part, ObjectNode row, String where) throws SQLException {
        RowFields f = new RowFields(row, where);
        PreparedStatement p = inserts.get(part);
        switch (part) {
            case USERS -> {
                p.setString(1, f.text("email"));
                p.setString(2, f.optionalText("first_name", ""));
                p.setString(3, f.optionalText("last_name", ""));
                p.setString(4, f.optionalText("institution", ""));
            }
            case COMPUTERS -> {
                p.setString(1, f.uuid("uuid"));
                p.setString(2, f.text("label"));
                p.setString(3, f.text("hostname"));
                p.setString(4, f.optionalText("description", ""));
                p.setString(5, f.text("scheduler_type"));
                p.setString(6, f.text("transport_type"));
                p.setString(7, f.json("metadata"));
            }
            case AUTHINFOS -> {
                p.setLong(1, id(userByEmail, f.text("user"), "user", f));
                p.setLong(2, id(computerByUuid, f.uuid("computer"), "computer", f));
                p.setString(3, f.json("metadata"));
                p.setString(4, f.json("auth_params"));
                p.setInt(5, f.bool("enabled", true) ? 1 : 0);
            }
            case GROUPS -> {
                p.setString(1, f.uuid("uuid"));
                p.setString(2, f.text("label"));
                p.setString(3, f.optionalText("type_string", "core"));
                p.setString(4, f.time("time"));
                p.setString(5, f.optionalText("description", ""));
                p.setString(6, f.json("extras"));
                p.setLong(7, id(userByEmail, f.text("user"), "user", f));
            }
            case NODES -> node(p, f);
            case LINKS -> {
                p.setLong(1, id(nodeByUuid, f.uuid("input"), "node", f));
                p.setLong(2, id(nodeByUuid, f.uuid("output"), "node", f));
                p.setString(3, f.text("label"));
                String type = f.text("type");
                if (!ArchiveRows.LINK_TYPES.contains(type)) {
                    throw f.invalid("type '" + type + "' is no link type; known: " + ArchiveRows.LINK_TYPES);
                }
                p.setString(4, type);
            }
            case GROUP_MEMBERS -> {
                p.setLong(1, id(nodeByUuid, f.uuid("node"), "node", f));
                p.setLong(2, id(groupByUuid, f.uuid("group"), "group", f));
            }
            case COMMENTS -> {
                p.setString(1, f.uuid("uuid"));
                p.setLong(2, id(nodeByUuid, f.uuid("node"), "node", f));
                p.setString(3, f.time("ctime"));
                p.setString(4, f.time("mtime"));
                p.setLong(5, id(userByEmail, f.text("user"), "user", f));
                p.setString(6, f.text("content"));
            }
            case LOGS -> {
                p.setString(1, f.uuid("uuid"));
                p.setString(2, f.time("time"));
                p.setString(3, f.text("logger_name"));
                p.setString(4, f.text("level_name"));
                p.setLong(5, id(nodeByUuid, f.uuid("node"), "node", f));
                p.setString(6, f.text("message"));
                p.setString(7, f.json("metadata"));
            }
            case OBJECTS -> throw new IllegalArgumentException("objects are no rows");
        }
        try {
            p.executeUpdate();
        } catch (SQLException e) {
            // a unique key taken twice (a uuid, an email, a label, a group member)
            throw f.invalid("cannot be written: " + e.getMessage());
        }
    }

    private void node(PreparedStatement p, RowFields f) throws SQLException {
        String uuid = f.uuid("uuid");
        String type = f.text("node_type");
        if (!ArchiveRows.wellFormedNodeType(type)) {
            throw f.invalid("node_type '" + type + "' is malformed: a node type is dotted, starts with 'data.' or"
                    + " 'process.' and ends with '.', e.g. data.core.int.Int.");
        }
        ObjectNode attributes = f.object("attributes");
        if (type.startsWith("process.")) {
            // AiiDA's exports carry no checkpoints: they are a running process's state, not provenance
            attributes.remove("checkpoints");
        }
        ObjectNode files = f.object("repository_metadata");
        SQLException[] failed = new SQLException[1];
        String why = RepositoryTree.walk(files, key -> {
            try {
                nameKey.setString(1, key);
                nameKey.setString(2, uuid);
                nameKey.executeUpdate();
            } catch (SQLException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        if (why != null) {
            throw f.invalid("repository_metadata " + why);
        }
        p.setString(1, uuid);
        p.setString(2, type);
        p.setString(3, f.optionalText("process_type", null));
        p.setString(4, f.optionalText("label", ""));
        p.setString(5, f.optionalText("description", ""));
        p.setString(6, f.time("ctime"));
        p.setString(7, f.time("mtime"));
        p.setString(8, AiidaJson.MAPPER.writeValueAsString(attributes));
        p.setString(9, f.json("extras"));
        p.setString(10, AiidaJson.MAPPER.writeValueAsString(files));
        String computer = f.optionalText("computer", null);
        if (computer == null) {
            p.setNull(11, Types.INTEGER);
        } else {
            p.setLong(11, id(computerByUuid, f.uuid("computer"), "computer", f));
        }
        p.setLong(12, id(userByEmail, f.text("user"), "user", f));
    }

    private static long id(PreparedStatement lookup, String value, String what, RowFields f) throws SQLException {
        lookup.setString(1, value);
        try (ResultSet r = lookup.executeQuery()) {
            if (!r.next()) {
                throw f.invalid("names " + what + " " + value + ", which no earlier row of the archive is");
            }
            return r.getLong(1);
        }
    }

    /** Records that the object {@code key} is in the zip; false if it was there already. */
    boolean objectWritten(String key) throws SQLException {
        writeKey.setString(1, key);
        return writeKey.executeUpdate() == 1;
    }

    /** The first key some node names that was not written, with the node, or null when all were. */
    String[] missingObject() throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT n.key, n.node FROM temp.named_keys n"
                        + " LEFT JOIN temp.written_keys w ON w.key = n.key WHERE w.key IS NULL LIMIT 1")) {
            return r.next() ? new String[] {r.getString(1), r.getString(2)} : null;
        }
    }

    /** Ends the transaction: the file is complete. */
    void commit() throws SQLException {
        c.commit();
    }

    @Override
    public void close() throws SQLException {
        c.close();
    }
}
