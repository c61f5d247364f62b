package dev.cairn.storage.archive.aiida;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * The columns of one row of an archive's database, converted to what Cairn's rows hold, each failure
 * naming the file, the table, the row's id and the column.
 */
final class Cells {

    private static final Pattern HEX32 = Pattern.compile("[0-9a-fA-F]{32}");

    private final ResultSet r;
    private final String where;

    /** {@code r} positioned on a row whose id is its column {@code id}; {@code where} names the table. */
    Cells(ResultSet r, String where) throws SQLException {
        this.r = r;
        this.where = where + " row " + r.getLong("id");
    }

    InvalidArchiveException invalid(String what) {
        return new InvalidArchiveException(where + ": " + what);
    }

    /** A text column that must be present. */
    String text(String column) throws SQLException {
        String value = r.getString(column);
        if (value == null) {
            throw invalid(column + " is null");
        }
        return value;
    }

    /** A text column that may be null. */
    String optionalText(String column) throws SQLException {
        return r.getString(column);
    }

    /** A uuid, as AiiDA writes it (36 characters) or without hyphens, in its canonical lowercase form. */
    String uuid(String column) throws SQLException {
        return checkedUuid(column, text(column));
    }

    /**
     * The email of the user, or the uuid of the row, that a foreign key names, read through a left join:
     * {@code id} is the key's column, {@code column} the joined value, null when the archive lacks the row.
     */
    String reference(String column, String id, String table) throws SQLException {
        long key = r.getLong(id);
        if (r.wasNull()) {
            throw invalid(id + " is null");
        }
        String value = r.getString(column);
        if (value == null) {
            throw invalid(id + " names " + table + " row " + key + ", which the archive does not hold");
        }
        return column.equals("email") ? value : checkedUuid(column, value);
    }

    /** As {@link #reference}, but a null key is allowed and reads as null (a node without a computer). */
    String optionalReference(String column, String id, String table) throws SQLException {
        r.getLong(id);
        return r.wasNull() ? null : reference(column, id, table);
    }

    private String checkedUuid(String column, String text) {
        String value = text.strip();
        if (value.length() == 32 && HEX32.matcher(value).matches()) {
            value = value.substring(0, 8) + "-" + value.substring(8, 12) + "-" + value.substring(12, 16) + "-"
                    + value.substring(16, 20) + "-" + value.substring(20);
        }
        try {
            if (value.length() == 36) {
                return UUID.fromString(value).toString().toLowerCase(Locale.ROOT);
            }
        } catch (IllegalArgumentException e) {
            // refused below, with the row named
        }
        throw invalid(column + " '" + value + "' is no uuid");
    }

    /** A naive UTC datetime as ISO 8601 with its offset. */
    String time(String column) throws SQLException {
        String value = text(column);
        Instant instant = NaiveUtc.parse(value);
        if (instant == null) {
            throw invalid(column + " '" + value + "' is no datetime");
        }
        return NaiveUtc.iso(instant);
    }

    /** A JSON object column; null (which AiiDA allows for attributes and extras) reads as {@code {}}. */
    ObjectNode object(String column) throws SQLException {
        String value = r.getString(column);
        if (value == null) {
            return AiidaJson.MAPPER.createObjectNode();
        }
        JsonNode node;
        try {
            node = AiidaJson.MAPPER.readTree(value);
        } catch (JacksonException e) {
            throw invalid(column + " is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || node.isNull()) {
            return AiidaJson.MAPPER.createObjectNode();
        }
        if (!node.isObject()) {
            throw invalid(column + " is not a JSON object");
        }
        return (ObjectNode) node;
    }

    /** A boolean column: SQLite holds 0 or 1. */
    boolean bool(String column) throws SQLException {
        long value = r.getLong(column);
        if (r.wasNull() || (value != 0 && value != 1)) {
            throw invalid(column + " is '" + r.getString(column) + "', not a boolean");
        }
        return value == 1;
    }
}
