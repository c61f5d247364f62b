package dev.cairn.storage.archive.aiida;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * AiiDA's datetimes in SQLite: naive UTC text, {@code 2026-11-24 22:45:40.654088} (SQLAlchemy's
 * format, always six fractional digits). Cairn's rows carry ISO 8601 with an offset.
 */
final class NaiveUtc {

    /** What SQLAlchemy writes; reading also takes a 'T', fewer digits, none, or an offset. */
    private static final DateTimeFormatter WRITE = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

    private static final DateTimeFormatter READ = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .appendLiteral(' ')
            .optionalEnd()
            .optionalStart()
            .appendLiteral('T')
            .optionalEnd()
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .optionalStart()
            .appendOffset("+HH:MM", "Z")
            .optionalEnd()
            .optionalStart()
            .appendOffset("+HHMM", "Z")
            .optionalEnd()
            .parseDefaulting(ChronoField.OFFSET_SECONDS, 0)
            .toFormatter();

    private NaiveUtc() {}

    /** The instant a column's text names, UTC unless it carries an offset; {@code null} if unreadable. */
    static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text.strip(), READ).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The ISO 8601 form of Cairn's rows (UTC, {@code Z}). */
    static String iso(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }

    /** The column text AiiDA writes for {@code instant}. */
    static String format(Instant instant) {
        return WRITE.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    /** An ISO 8601 time with offset from a row; {@code null} if it is none. */
    static Instant parseIso(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }
}
