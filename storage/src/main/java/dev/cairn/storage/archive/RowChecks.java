package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The checks of the staged rows that need nothing but the rows: every field of the right JSON type and
 * form (uuids, times, link types and labels), no uuid twice. The nodes, which are not staged, have
 * theirs in {@link NodeRowChecks}. Each check
 * is a condition that marks a row bad and an SQL expression that says why, so the error names the part,
 * the row and the value.
 */
final class RowChecks {

    static final String UUID = "'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'";
    static final String TIME =
            "'^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}(:?\\d{2})?)?$'";
    static final String LABEL = "'^[A-Za-z0-9]([A-Za-z0-9_]*[A-Za-z0-9])?$'";

    /** A row of {@code part} is bad when {@code when}; {@code why} is the SQL text of the message. */
    record Check(ArchivePart part, String when, String why) {}

    private static final List<Check> CHECKS = List.of(
            objectRow(ArchivePart.USERS),
            text(ArchivePart.USERS, "email"),
            new Check(ArchivePart.USERS, "doc->>'email' = ''", "'the email is empty'"),
            objectRow(ArchivePart.COMPUTERS),
            uuid(ArchivePart.COMPUTERS, "uuid"),
            text(ArchivePart.COMPUTERS, "label"),
            text(ArchivePart.COMPUTERS, "hostname"),
            text(ArchivePart.COMPUTERS, "transport_type"),
            text(ArchivePart.COMPUTERS, "scheduler_type"),
            json(ArchivePart.COMPUTERS, "metadata"),
            objectRow(ArchivePart.AUTHINFOS),
            text(ArchivePart.AUTHINFOS, "user"),
            uuid(ArchivePart.AUTHINFOS, "computer"),
            json(ArchivePart.AUTHINFOS, "auth_params"),
            json(ArchivePart.AUTHINFOS, "metadata"),
            objectRow(ArchivePart.GROUPS),
            uuid(ArchivePart.GROUPS, "uuid"),
            text(ArchivePart.GROUPS, "label"),
            new Check(ArchivePart.GROUPS, "doc->>'label' = ''", "'the label is empty'"),
            time(ArchivePart.GROUPS, "time"),
            text(ArchivePart.GROUPS, "user"),
            json(ArchivePart.GROUPS, "extras"),
            objectRow(ArchivePart.LINKS),
            uuid(ArchivePart.LINKS, "input"),
            uuid(ArchivePart.LINKS, "output"),
            new Check(
                    ArchivePart.LINKS,
                    "coalesce(doc->>'type', '') NOT IN ('create', 'return', 'input_calc', 'input_work', 'call_calc',"
                            + " 'call_work')",
                    "'link type ' || coalesce(quote_literal(doc->>'type'), 'null') || ' is none of create, return,"
                            + " input_calc, input_work, call_calc, call_work'"),
            new Check(
                    ArchivePart.LINKS,
                    "NOT coalesce(doc->>'label' ~ " + LABEL + ", false)",
                    "'link label ' || coalesce(quote_literal(doc->>'label'), 'null') || ' is not an identifier of"
                            + " letters, digits and _ that neither starts nor ends with _'"),
            new Check(ArchivePart.LINKS, "doc->>'input' = doc->>'output'", "'the link joins a node to itself'"),
            objectRow(ArchivePart.GROUP_MEMBERS),
            uuid(ArchivePart.GROUP_MEMBERS, "group"),
            uuid(ArchivePart.GROUP_MEMBERS, "node"),
            objectRow(ArchivePart.COMMENTS),
            uuid(ArchivePart.COMMENTS, "uuid"),
            uuid(ArchivePart.COMMENTS, "node"),
            text(ArchivePart.COMMENTS, "user"),
            text(ArchivePart.COMMENTS, "content"),
            time(ArchivePart.COMMENTS, "ctime"),
            time(ArchivePart.COMMENTS, "mtime"),
            objectRow(ArchivePart.LOGS),
            uuid(ArchivePart.LOGS, "uuid"),
            uuid(ArchivePart.LOGS, "node"),
            time(ArchivePart.LOGS, "time"),
            text(ArchivePart.LOGS, "logger_name"),
            text(ArchivePart.LOGS, "level_name"),
            text(ArchivePart.LOGS, "message"),
            json(ArchivePart.LOGS, "metadata"));

    private RowChecks() {}

    /**
     * Runs the checks of {@code parts}, one pass over each part's staged rows (a row's JSON is read once,
     * not once per check), then looks for uuids (emails) given twice; fails on the first bad row.
     */
    static void run(Connection c, List<ArchivePart> parts) throws SQLException {
        for (ArchivePart part : parts) {
            List<Check> checks = CHECKS.stream().filter(k -> k.part() == part).toList();
            StringBuilder why = new StringBuilder("CASE");
            StringBuilder when = new StringBuilder();
            for (Check k : checks) {
                why.append(" WHEN coalesce(")
                        .append(k.when())
                        .append(", true) THEN ")
                        .append(k.why());
                when.append(when.isEmpty() ? "" : " OR ")
                        .append("coalesce(")
                        .append(k.when())
                        .append(", true)");
            }
            fail(
                    c,
                    part,
                    "SELECT ord, " + why + " ELSE 'a field is missing' END FROM " + Staging.table(part) + " WHERE "
                            + when + " ORDER BY ord LIMIT 1");
        }
        for (ArchivePart part : parts) {
            switch (part) {
                case USERS -> unique(c, part, "email");
                case COMPUTERS, GROUPS, COMMENTS, LOGS -> unique(c, part, "uuid");
                default -> {}
            }
        }
    }

    private static void unique(Connection c, ArchivePart part, String field) throws SQLException {
        fail(
                c,
                part,
                "SELECT max(ord), '" + field + " ' || min(doc->>'" + field + "') || ' is given twice' FROM "
                        + Staging.table(part) + " GROUP BY lower(doc->>'" + field + "') HAVING count(*) > 1 LIMIT 1");
    }

    /** Fails naming the row when {@code query} (ord, why) finds one. */
    static void fail(Connection c, ArchivePart part, String query) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            if (r.next()) {
                throw new InvalidArchiveException(
                        "the archive's " + part.key() + " part, row " + r.getLong(1) + ": " + r.getString(2));
            }
        }
    }

    private static Check objectRow(ArchivePart part) {
        return new Check(
                part,
                "jsonb_typeof(doc) <> 'object'",
                "'the row is a JSON ' || jsonb_typeof(doc) || ', not an object'");
    }

    private static Check text(ArchivePart part, String field) {
        return new Check(
                part,
                "jsonb_typeof(doc->'" + field + "') IS DISTINCT FROM 'string'",
                "'" + field + " is ' || coalesce((doc->'" + field + "')::text, 'missing') || ', not text'");
    }

    private static Check uuid(ArchivePart part, String field) {
        return new Check(
                part,
                "NOT coalesce(doc->>'" + field + "' ~ " + UUID + ", false)",
                "'" + field + " is ' || coalesce((doc->'" + field + "')::text, 'missing') || ', not a uuid'");
    }

    private static Check time(ArchivePart part, String field) {
        return new Check(
                part,
                "NOT coalesce(doc->>'" + field + "' ~ " + TIME + ", false)",
                "'" + field + " is ' || coalesce((doc->'" + field + "')::text, 'missing')"
                        + " || ', not an ISO 8601 time such as 2026-11-24T12:00:00Z'");
    }

    /** A JSON object, or absent (taken as empty). */
    private static Check json(ArchivePart part, String field) {
        return new Check(
                part,
                "jsonb_exists(doc, '" + field + "') AND jsonb_typeof(doc->'" + field + "') NOT IN ('object', 'null')",
                "'" + field + " is a JSON ' || jsonb_typeof(doc->'" + field + "') || ', not an object'");
    }
}
