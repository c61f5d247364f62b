package dev.cairn.storage.archive.aiida;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.InvalidArchiveException;

/** The fields of one of Cairn's rows, converted to AiiDA's columns, each failure naming the part and row. */
final class RowFields {

    private final ObjectNode row;
    private final String where;

    RowFields(ObjectNode row, String where) {
        this.row = row;
        this.where = where;
    }

    InvalidArchiveException invalid(String what) {
        return new InvalidArchiveException(where + ": " + what);
    }

    /** A string field that must be present. */
    String text(String field) {
        JsonNode value = row.get(field);
        if (value == null || !value.isString()) {
            throw invalid(field + " is " + (value == null ? "missing" : value + ", not a string"));
        }
        return value.asString();
    }

    /** A string field that may be missing or null. */
    String optionalText(String field, String otherwise) {
        JsonNode value = row.get(field);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        return text(field);
    }

    /** A uuid in the form AiiDA writes: 36 characters, lowercase. */
    String uuid(String field) {
        String value = text(field);
        try {
            if (value.length() == 36) {
                return UUID.fromString(value).toString().toLowerCase(Locale.ROOT);
            }
        } catch (IllegalArgumentException e) {
            // refused below, with the row named
        }
        throw invalid(field + " '" + value + "' is no uuid");
    }

    /** An ISO 8601 time with offset, as AiiDA's naive UTC column text. */
    String time(String field) {
        String value = text(field);
        Instant instant = NaiveUtc.parseIso(value);
        if (instant == null) {
            throw invalid(field + " '" + value + "' is no ISO 8601 time with an offset");
        }
        return NaiveUtc.format(instant);
    }

    /** A JSON object field (missing or null is {@code {}}). */
    ObjectNode object(String field) {
        JsonNode value = row.get(field);
        if (value == null || value.isNull()) {
            return AiidaJson.MAPPER.createObjectNode();
        }
        if (!value.isObject()) {
            throw invalid(field + " is not a JSON object");
        }
        return (ObjectNode) value;
    }

    /** A JSON object field as the text of AiiDA's JSON column. */
    String json(String field) {
        return AiidaJson.MAPPER.writeValueAsString(object(field));
    }

    boolean bool(String field, boolean otherwise) {
        JsonNode value = row.get(field);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw invalid(field + " is " + value + ", not a boolean");
        }
        return value.booleanValue();
    }
}
