package dev.cairn.cli.output;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Times as people read them in a table: "12 s ago", "3 min ago", "5 h ago", "2 d ago". */
public final class RelativeTime {

    private RelativeTime() {}

    /** An ISO-8601 time as a server writes it, relative to now; the text itself if it is no time. */
    public static String ago(String iso, Instant now) {
        if (iso == null || iso.isEmpty()) {
            return "";
        }
        try {
            return ago(OffsetDateTime.parse(iso).toInstant(), now);
        } catch (DateTimeParseException e) {
            return iso;
        }
    }

    public static String ago(Instant then, Instant now) {
        long seconds = Duration.between(then, now).toSeconds();
        if (seconds < 0) {
            return "in " + span(-seconds);
        }
        return seconds < 1 ? "now" : span(seconds) + " ago";
    }

    /** A duration in its largest whole unit: "45 s", "3 min", "5 h", "2 d". */
    public static String span(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min";
        }
        if (seconds < 86_400) {
            return seconds / 3600 + " h";
        }
        return seconds / 86_400 + " d";
    }
}
