package dev.cairn.storage.archive.aiida;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchivePart;

/**
 * Each part's rows read from an AiiDA archive's database, in Cairn's row shapes
 * ({@code docs/archive-format.md}): ids become the uuids (users the emails) they stand for, through left
 * joins so that a dangling id is an error rather than a row that silently goes missing; AiiDA's column
 * names become Cairn's; naive UTC datetimes gain their offset.
 */
final class ArchiveRows {

    static final List<String> LINK_TYPES =
            List.of("create", "return", "input_calc", "input_work", "call_calc", "call_work");

    /** The table each part is read from, for counting. */
    static final Map<ArchivePart, String> TABLES = Map.of(
            ArchivePart.USERS, "db_dbuser",
            ArchivePart.COMPUTERS, "db_dbcomputer",
            ArchivePart.AUTHINFOS, "db_dbauthinfo",
            ArchivePart.GROUPS, "db_dbgroup",
            ArchivePart.NODES, "db_dbnode",
            ArchivePart.LINKS, "db_dblink",
            ArchivePart.GROUP_MEMBERS, "db_dbgroup_dbnodes",
            ArchivePart.COMMENTS, "db_dbcomment",
            ArchivePart.LOGS, "db_dblog");

    private ArchiveRows() {}

    /** A stream of {@code part}'s rows of the database {@code c} reads; {@code file} names the archive. */
    static RowStream open(Connection c, ArchivePart part, String file) throws SQLException {
        String table = TABLES.get(part);
        String where = file + ", db.sqlite3, " + table;
        Statement s = c.createStatement();
        try {
            ResultSet r = s.executeQuery(sql(part));
            return new RowStream(s, r, row -> map(part, new Cells(row, where)), where);
        } catch (SQLException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private static String sql(ArchivePart part) {
        return switch (part) {
            case USERS -> "SELECT id, email, first_name, last_name, institution FROM db_dbuser ORDER BY id";
            case COMPUTERS ->
                "SELECT id, uuid, label, hostname, description, transport_type, scheduler_type, metadata"
                        + " FROM db_dbcomputer ORDER BY id";
            case AUTHINFOS ->
                "SELECT a.id, a.aiidauser_id, u.email, a.dbcomputer_id, c.uuid AS computer, a.auth_params,"
                        + " a.metadata, a.enabled FROM db_dbauthinfo a"
                        + " LEFT JOIN db_dbuser u ON u.id = a.aiidauser_id"
                        + " LEFT JOIN db_dbcomputer c ON c.id = a.dbcomputer_id ORDER BY a.id";
            case GROUPS ->
                "SELECT g.id, g.uuid, g.label, g.type_string, g.description, g.time, g.user_id, u.email, g.extras"
                        + " FROM db_dbgroup g LEFT JOIN db_dbuser u ON u.id = g.user_id ORDER BY g.id";
            case NODES ->
                "SELECT n.id, n.uuid, n.node_type, n.process_type, n.label, n.description, n.ctime, n.mtime,"
                        + " n.user_id, u.email, n.dbcomputer_id, c.uuid AS computer, n.attributes, n.extras,"
                        + " n.repository_metadata FROM db_dbnode n"
                        + " LEFT JOIN db_dbuser u ON u.id = n.user_id"
                        + " LEFT JOIN db_dbcomputer c ON c.id = n.dbcomputer_id ORDER BY n.id";
            case LINKS ->
                "SELECT l.id, l.input_id, i.uuid AS input, l.output_id, o.uuid AS output, l.type, l.label"
                        + " FROM db_dblink l LEFT JOIN db_dbnode i ON i.id = l.input_id"
                        + " LEFT JOIN db_dbnode o ON o.id = l.output_id ORDER BY l.id";
            case GROUP_MEMBERS ->
                "SELECT m.id, m.dbgroup_id, g.uuid AS grp, m.dbnode_id, n.uuid AS node FROM db_dbgroup_dbnodes m"
                        + " LEFT JOIN db_dbgroup g ON g.id = m.dbgroup_id"
                        + " LEFT JOIN db_dbnode n ON n.id = m.dbnode_id ORDER BY m.id";
            case COMMENTS ->
                "SELECT m.id, m.uuid, m.dbnode_id, n.uuid AS node, m.user_id, u.email, m.ctime, m.mtime, m.content"
                        + " FROM db_dbcomment m LEFT JOIN db_dbnode n ON n.id = m.dbnode_id"
                        + " LEFT JOIN db_dbuser u ON u.id = m.user_id ORDER BY m.id";
            case LOGS ->
                "SELECT l.id, l.uuid, l.dbnode_id, n.uuid AS node, l.time, l.loggername, l.levelname, l.message,"
                        + " l.metadata FROM db_dblog l LEFT JOIN db_dbnode n ON n.id = l.dbnode_id ORDER BY l.id";
            case OBJECTS -> throw new IllegalArgumentException("objects are no rows");
        };
    }

    private static ObjectNode map(ArchivePart part, Cells c) throws SQLException {
        ObjectNode row = AiidaJson.MAPPER.createObjectNode();
        switch (part) {
            case USERS -> {
                String email = c.text("email");
                if (email.isBlank()) {
                    throw c.invalid("email is empty");
                }
                row.put("email", email);
                row.put("first_name", c.text("first_name"));
                row.put("last_name", c.text("last_name"));
                row.put("institution", c.text("institution"));
            }
            case COMPUTERS -> {
                row.put("uuid", c.uuid("uuid"));
                row.put("label", c.text("label"));
                row.put("hostname", c.text("hostname"));
                row.put("description", c.text("description"));
                row.put("transport_type", c.text("transport_type"));
                row.put("scheduler_type", c.text("scheduler_type"));
                row.set("metadata", c.object("metadata"));
            }
            case AUTHINFOS -> {
                row.put("user", c.reference("email", "aiidauser_id", "db_dbuser"));
                row.put("computer", c.reference("computer", "dbcomputer_id", "db_dbcomputer"));
                row.set("auth_params", c.object("auth_params"));
                row.set("metadata", c.object("metadata"));
                row.put("enabled", c.bool("enabled"));
            }
            case GROUPS -> {
                row.put("uuid", c.uuid("uuid"));
                row.put("label", c.text("label"));
                row.put("type_string", c.text("type_string"));
                row.put("description", c.text("description"));
                row.put("time", c.time("time"));
                row.put("user", c.reference("email", "user_id", "db_dbuser"));
                row.set("extras", c.object("extras"));
            }
            case NODES -> node(c, row);
            case LINKS -> {
                row.put("input", c.reference("input", "input_id", "db_dbnode"));
                row.put("output", c.reference("output", "output_id", "db_dbnode"));
                String type = c.text("type");
                if (!LINK_TYPES.contains(type)) {
                    throw c.invalid("type '" + type + "' is no link type; known: " + LINK_TYPES);
                }
                row.put("type", type);
                row.put("label", c.text("label"));
            }
            case GROUP_MEMBERS -> {
                row.put("group", c.reference("grp", "dbgroup_id", "db_dbgroup"));
                row.put("node", c.reference("node", "dbnode_id", "db_dbnode"));
            }
            case COMMENTS -> {
                row.put("uuid", c.uuid("uuid"));
                row.put("node", c.reference("node", "dbnode_id", "db_dbnode"));
                row.put("user", c.reference("email", "user_id", "db_dbuser"));
                row.put("ctime", c.time("ctime"));
                row.put("mtime", c.time("mtime"));
                row.put("content", c.text("content"));
            }
            case LOGS -> {
                row.put("uuid", c.uuid("uuid"));
                row.put("node", c.reference("node", "dbnode_id", "db_dbnode"));
                row.put("time", c.time("time"));
                row.put("logger_name", c.text("loggername"));
                row.put("level_name", c.text("levelname"));
                row.put("message", c.text("message"));
                row.set("metadata", c.object("metadata"));
            }
            case OBJECTS -> throw new IllegalArgumentException("objects are no rows");
        }
        return row;
    }

    private static void node(Cells c, ObjectNode row) throws SQLException {
        row.put("uuid", c.uuid("uuid"));
        row.put("node_type", nodeType(c));
        row.put("process_type", c.optionalText("process_type"));
        row.put("label", c.text("label"));
        row.put("description", c.text("description"));
        row.put("ctime", c.time("ctime"));
        row.put("mtime", c.time("mtime"));
        row.put("user", c.reference("email", "user_id", "db_dbuser"));
        row.put(
                "computer",
                c.optionalText("computer") == null && c.optionalText("dbcomputer_id") == null
                        ? null
                        : c.reference("computer", "dbcomputer_id", "db_dbcomputer"));
        row.set("attributes", c.object("attributes"));
        row.set("extras", withoutPrivateExtras(c.object("extras")));
        ObjectNode files = c.object("repository_metadata");
        String why = RepositoryTree.walk(files, key -> {});
        if (why != null) {
            throw c.invalid("repository_metadata " + why);
        }
        row.set("repository_metadata", files);
    }

    /** The node type of the row, checked as the schema checks it. */
    static String nodeType(Cells c) throws SQLException {
        String type = c.text("node_type");
        if (!wellFormedNodeType(type)) {
            throw c.invalid("node_type '" + type + "' is malformed: a node type is dotted, starts with 'data.' or"
                    + " 'process.' and ends with '.', e.g. data.core.int.Int.");
        }
        return type;
    }

    /**
     * The schema's own check on node types, {@code (data|process)\.([A-Za-z0-9_]+\.)+}: dotted, from
     * {@code data.} or {@code process.}, ending with a dot. By hand: the regular expression took a fifth
     * of the time of reading a large archive.
     */
    static boolean wellFormedNodeType(String type) {
        int i = type.startsWith("data.") ? 5 : type.startsWith("process.") ? 8 : -1;
        if (i < 0 || i == type.length()) {
            return false;
        }
        int segment = 0;
        for (; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c == '.') {
                if (segment == 0) {
                    return false;
                }
                segment = 0;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
                segment++;
            } else {
                return false;
            }
        }
        return segment == 0;
    }

    /**
     * Extras without AiiDA's private {@code _aiida_*} keys (its hash among them), as aiida-core's importer
     * drops them: the importing side computes hashes by its own rules.
     */
    static ObjectNode withoutPrivateExtras(ObjectNode extras) {
        List<String> drop = new ArrayList<>();
        for (String key : extras.propertyNames()) {
            if (key.startsWith("_aiida_")) {
                drop.add(key);
            }
        }
        extras.remove(drop);
        return extras;
    }
}
