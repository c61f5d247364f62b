package dev.cairn.storage.archive.aiida;

import java.time.DateTimeException;
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
 * format, always six fractional digits). Cairn's rows carry ISO 8601 with an offset. Every row has two
 * or three of them, so the usual forms are parsed and written by hand (the formatters took a quarter of
 * a large archive's time), the formatters kept for anything unusual.
 */
final class NaiveUtc {

    /** Reading also takes a 'T', fewer digits, none, or an offset. */
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
        Instant fast = fast(text, false);
        if (fast != null) {
            return fast;
        }
        try {
            return OffsetDateTime.parse(text.strip(), READ).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** An ISO 8601 time with offset from a row; {@code null} if it is none. */
    static Instant parseIso(String text) {
        Instant fast = fast(text, true);
        if (fast != null) {
            return fast;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The ISO 8601 form of Cairn's rows (UTC, {@code Z}). */
    static String iso(Instant instant) {
        return instant.toString();
    }

    /** The column text AiiDA writes for {@code instant}: UTC, microseconds. */
    static String format(Instant instant) {
        LocalDateTime t = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        StringBuilder b = new StringBuilder(26);
        pad(b, t.getYear(), 4).append('-');
        pad(b, t.getMonthValue(), 2).append('-');
        pad(b, t.getDayOfMonth(), 2).append(' ');
        pad(b, t.getHour(), 2).append(':');
        pad(b, t.getMinute(), 2).append(':');
        pad(b, t.getSecond(), 2).append('.');
        return pad(b, t.getNano() / 1000, 6).toString();
    }

    private static StringBuilder pad(StringBuilder b, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(digits);
    }

    /**
     * {@code yyyy-MM-dd(T| )HH:mm:ss[.f…]} then {@code Z} or {@code ±HH:MM} (required if
     * {@code offsetRequired}, else UTC when absent); null for any other form.
     */
    private static Instant fast(String t, boolean offsetRequired) {
        int n = t.length();
        if (n < 19
                || t.charAt(4) != '-'
                || t.charAt(7) != '-'
                || (t.charAt(10) != 'T' && t.charAt(10) != ' ')
                || t.charAt(13) != ':'
                || t.charAt(16) != ':') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 7);
        int day = digits(t, 8, 10);
        int hour = digits(t, 11, 13);
        int minute = digits(t, 14, 16);
        int second = digits(t, 17, 19);
        int i = 19;
        int nanos = 0;
        if (i < n && t.charAt(i) == '.') {
            int start = ++i;
            while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                i++;
            }
            if (i == start || i - start > 9) {
                return null;
            }
            nanos = digits(t, start, i);
            for (int k = i - start; k < 9; k++) {
                nanos *= 10;
            }
        }
        int offset;
        if (i == n) {
            if (offsetRequired) {
                return null;
            }
            offset = 0;
        } else if (i == n - 1 && t.charAt(i) == 'Z') {
            offset = 0;
        } else if (i == n - 6 && (t.charAt(i) == '+' || t.charAt(i) == '-') && t.charAt(i + 3) == ':') {
            int hours = digits(t, i + 1, i + 3);
            int minutes = digits(t, i + 4, i + 6);
            if (hours < 0 || minutes < 0) {
                return null;
            }
            offset = (t.charAt(i) == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
        } else {
            return null;
        }
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
            return null;
        }
        try {
            long epoch = LocalDateTime.of(year, month, day, hour, minute, second)
                    .toEpochSecond(ZoneOffset.ofTotalSeconds(offset));
            return Instant.ofEpochSecond(epoch, nanos);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The decimal number of {@code t[from, to)}, or -1 if a character is no digit. */
    private static int digits(String t, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
