package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The writes of an import around the nodes: users (matched by email), computers and groups (by uuid;
 * a new one whose label is taken gets {@code <label>_<n>}), authinfos, group members, comments (merged
 * by the options' mode) and logs. Every statement adds only what the installation lacks.
 */
final class EntityImports {

    private EntityImports() {}

    static long users(Connection c) throws SQLException {
        return update(
                c,
                "INSERT INTO app_user (email, first_name, last_name, institution)"
                        + " SELECT doc->>'email', coalesce(doc->>'first_name', ''), coalesce(doc->>'last_name', ''),"
                        + " coalesce(doc->>'institution', '') FROM " + Staging.table(ArchivePart.USERS)
                        + " ORDER BY ord ON CONFLICT (email) DO NOTHING");
    }

    static long computers(Connection c) throws SQLException {
        List<long[]> fresh = new ArrayList<>();
        long added = 0;
        try (Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery("SELECT a.ord, a.doc->>'label' FROM " + Staging.table(ArchivePart.COMPUTERS)
                                + " a WHERE NOT EXISTS (SELECT 1 FROM computer x WHERE x.uuid = (a.doc->>'uuid')::uuid)"
                                + " ORDER BY a.ord")) {
            while (r.next()) {
                fresh.add(new long[] {r.getLong(1)});
            }
        }
        for (long[] row : fresh) {
            String label = freeLabel(
                    c, "SELECT 1 FROM computer WHERE label = ?", labelOf(c, ArchivePart.COMPUTERS, row[0]), null);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO computer (uuid, label, hostname, description,"
                    + " transport_type, scheduler_type, metadata) SELECT (doc->>'uuid')::uuid, ?, doc->>'hostname',"
                    + " coalesce(doc->>'description', ''), doc->>'transport_type', doc->>'scheduler_type',"
                    + " coalesce(doc->'metadata', '{}') FROM " + Staging.table(ArchivePart.COMPUTERS)
                    + " WHERE ord = ?")) {
                s.setString(1, label);
                s.setLong(2, row[0]);
                added += s.executeUpdate();
            }
        }
        return added;
    }

    static long authinfos(Connection c) throws SQLException {
        RowChecks.fail(
                c,
                ArchivePart.AUTHINFOS,
                "SELECT a.ord, 'user ' || (a.doc->>'user') || ' or computer '"
                        + " || (a.doc->>'computer') || ' is neither in the archive nor here' FROM "
                        + Staging.table(ArchivePart.AUTHINFOS)
                        + " a WHERE NOT EXISTS (SELECT 1 FROM app_user u WHERE u.email"
                        + " = a.doc->>'user') OR NOT EXISTS (SELECT 1 FROM computer x WHERE x.uuid = (a.doc->>'computer')::uuid)"
                        + " ORDER BY a.ord LIMIT 1");
        return update(
                c,
                "INSERT INTO authinfo (user_id, computer_id, auth_params, metadata, enabled)"
                        + " SELECT u.id, x.id, coalesce(a.doc->'auth_params', '{}'), coalesce(a.doc->'metadata', '{}'),"
                        + " coalesce((a.doc->>'enabled')::boolean, true) FROM " + Staging.table(ArchivePart.AUTHINFOS)
                        + " a"
                        + " JOIN app_user u ON u.email = a.doc->>'user' JOIN computer x ON x.uuid = (a.doc->>'computer')::uuid"
                        + " ORDER BY a.ord ON CONFLICT (user_id, computer_id) DO NOTHING");
    }

    static long groups(Connection c) throws SQLException {
        RowChecks.fail(
                c,
                ArchivePart.GROUPS,
                "SELECT a.ord, 'user ' || (a.doc->>'user') || ' is neither in the"
                        + " archive nor here' FROM " + Staging.table(ArchivePart.GROUPS)
                        + " a WHERE NOT EXISTS (SELECT 1"
                        + " FROM app_user u WHERE u.email = a.doc->>'user') ORDER BY a.ord LIMIT 1");
        List<Long> fresh = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(
                        "SELECT a.ord FROM " + Staging.table(ArchivePart.GROUPS) + " a WHERE NOT"
                                + " EXISTS (SELECT 1 FROM node_group g WHERE g.uuid = (a.doc->>'uuid')::uuid) ORDER BY a.ord")) {
            while (r.next()) {
                fresh.add(r.getLong(1));
            }
        }
        long added = 0;
        for (long ord : fresh) {
            String type = typeOf(c, ord);
            String label = freeLabel(
                    c,
                    "SELECT 1 FROM node_group WHERE label = ? AND type_string = ?",
                    labelOf(c, ArchivePart.GROUPS, ord),
                    type);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO node_group (uuid, label, type_string,"
                    + " description, time, user_id, extras) SELECT (a.doc->>'uuid')::uuid, ?, ?,"
                    + " coalesce(a.doc->>'description', ''), (a.doc->>'time')::timestamptz, u.id,"
                    + " coalesce(a.doc->'extras', '{}') FROM " + Staging.table(ArchivePart.GROUPS) + " a"
                    + " JOIN app_user u ON u.email = a.doc->>'user' WHERE a.ord = ?")) {
                s.setString(1, label);
                s.setString(2, type);
                s.setLong(3, ord);
                added += s.executeUpdate();
            }
        }
        return added;
    }

    static long groupMembers(Connection c) throws SQLException {
        String members = Staging.table(ArchivePart.GROUP_MEMBERS);
        RowChecks.fail(
                c,
                ArchivePart.GROUP_MEMBERS,
                "SELECT m.ord, 'group ' || (m.doc->>'group') || ' or node '"
                        + " || (m.doc->>'node') || ' is neither in the archive nor here' FROM " + members + " m"
                        + " LEFT JOIN node_group g ON g.uuid = (m.doc->>'group')::uuid LEFT JOIN node n ON n.uuid ="
                        + " (m.doc->>'node')::uuid WHERE g.id IS NULL OR n.id IS NULL ORDER BY m.ord LIMIT 1");
        return update(
                c,
                "INSERT INTO group_member (group_id, node_id) SELECT g.id, n.id FROM " + members + " m"
                        + " JOIN node_group g ON g.uuid = (m.doc->>'group')::uuid JOIN node n ON n.uuid = (m.doc->>'node')::uuid"
                        + " ORDER BY m.ord ON CONFLICT DO NOTHING");
    }

    static long comments(Connection c, ImportOptions.CommentMerge merge) throws SQLException {
        String comments = Staging.table(ArchivePart.COMMENTS);
        RowChecks.fail(
                c,
                ArchivePart.COMMENTS,
                "SELECT a.ord, 'node ' || (a.doc->>'node') || ' or user '"
                        + " || (a.doc->>'user') || ' is neither in the archive nor here' FROM " + comments + " a"
                        + " LEFT JOIN node n ON n.uuid = (a.doc->>'node')::uuid LEFT JOIN app_user u ON u.email ="
                        + " a.doc->>'user' WHERE n.id IS NULL OR u.id IS NULL ORDER BY a.ord LIMIT 1");
        if (merge != ImportOptions.CommentMerge.LEAVE) {
            update(
                    c,
                    "UPDATE comment x SET content = a.doc->>'content', mtime = (a.doc->>'mtime')::timestamptz FROM "
                            + comments + " a WHERE x.uuid = (a.doc->>'uuid')::uuid AND x.content <> a.doc->>'content'"
                            + (merge == ImportOptions.CommentMerge.NEWEST
                                    ? " AND (a.doc->>'mtime')::timestamptz > x.mtime"
                                    : ""));
        }
        return update(
                c,
                "INSERT INTO comment (uuid, node_id, user_id, ctime, mtime, content)"
                        + " SELECT (a.doc->>'uuid')::uuid, n.id, u.id, (a.doc->>'ctime')::timestamptz,"
                        + " (a.doc->>'mtime')::timestamptz, a.doc->>'content' FROM " + comments + " a"
                        + " JOIN node n ON n.uuid = (a.doc->>'node')::uuid JOIN app_user u ON u.email = a.doc->>'user'"
                        + " ORDER BY a.ord ON CONFLICT (uuid) DO NOTHING");
    }

    static long logs(Connection c) throws SQLException {
        String logs = Staging.table(ArchivePart.LOGS);
        RowChecks.fail(
                c,
                ArchivePart.LOGS,
                "SELECT a.ord, 'node ' || (a.doc->>'node') || ' is neither in the"
                        + " archive nor here' FROM " + logs + " a WHERE NOT EXISTS (SELECT 1 FROM node n WHERE n.uuid ="
                        + " (a.doc->>'node')::uuid) ORDER BY a.ord LIMIT 1");
        return update(
                c,
                "INSERT INTO log (uuid, time, logger_name, level_name, node_id, message, metadata)"
                        + " SELECT (a.doc->>'uuid')::uuid, (a.doc->>'time')::timestamptz, a.doc->>'logger_name',"
                        + " a.doc->>'level_name', n.id, a.doc->>'message', coalesce(a.doc->'metadata', '{}') FROM "
                        + logs
                        + " a JOIN node n ON n.uuid = (a.doc->>'node')::uuid ORDER BY a.ord ON CONFLICT (uuid) DO NOTHING");
    }

    /** The group of type {@code core.import} an import puts the archive's nodes in. */
    record ImportGroup(long id, String label) {}

    /**
     * Makes the import group, with every node in {@code import_nodes} so far as a member but the new
     * processes, which are not in the node table yet (those and the nodes that follow are the caller's
     * to add).
     */
    static ImportGroup importGroup(Connection c, String wanted, long userId) throws SQLException {
        String label =
                freeLabel(c, "SELECT 1 FROM node_group WHERE label = ? AND type_string = ?", wanted, "core.import");
        long id;
        try (PreparedStatement s = c.prepareStatement("INSERT INTO node_group (uuid, label, type_string, description,"
                + " time, user_id) VALUES (gen_random_uuid(), ?, 'core.import', 'nodes of an imported archive',"
                + " now(), ?) RETURNING id")) {
            s.setString(1, label);
            s.setLong(2, userId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                id = r.getLong(1);
            }
        }
        try (PreparedStatement s =
                c.prepareStatement("INSERT INTO group_member (group_id, node_id) SELECT ?, id FROM import_nodes"
                        + " WHERE NOT (is_new AND node_type LIKE 'process.%')")) {
            s.setLong(1, id);
            s.executeUpdate();
        }
        return new ImportGroup(id, label);
    }

    /** {@code label}, or {@code label_<n>} with the smallest n that {@code taken} does not find. */
    private static String freeLabel(Connection c, String taken, String label, String type) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(taken)) {
            String candidate = label;
            for (int n = 1; ; n++) {
                s.setString(1, candidate);
                if (type != null) {
                    s.setString(2, type);
                }
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        return candidate;
                    }
                }
                candidate = label + "_" + n;
            }
        }
    }

    private static String labelOf(Connection c, ArchivePart part, long ord) throws SQLException {
        return single(c, "SELECT doc->>'label' FROM " + Staging.table(part) + " WHERE ord = " + ord);
    }

    private static String typeOf(Connection c, long ord) throws SQLException {
        String type = single(
                c, "SELECT doc->>'type_string' FROM " + Staging.table(ArchivePart.GROUPS) + " WHERE ord = " + ord);
        return type == null ? "core" : type;
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    static long update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeLargeUpdate(sql);
        }
    }
}
