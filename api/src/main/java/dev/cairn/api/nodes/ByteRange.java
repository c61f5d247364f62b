package dev.cairn.api.nodes;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one byte range a {@code Range} header asks of a file ({@code bytes=0-99}, {@code bytes=100-},
 * {@code bytes=-100}), as RFC 9110 reads it. A header this server does not serve as a range (several
 * ranges, another unit, a malformed one) is ignored: the whole file is sent, which the RFC allows.
 *
 * @param start the first byte
 * @param end   the last byte, inclusive
 */
record ByteRange(long start, long end) {

    private static final Pattern ONE = Pattern.compile("bytes=\\s*(\\d*)\\s*-\\s*(\\d*)\\s*");

    /** What a {@code Range} header asks of a file of {@code size} bytes. */
    sealed interface Request {
        /** No range, or one to ignore: the whole file. */
        record Whole() implements Request {}

        /** A range within the file (its end cut to the file's). */
        record Part(ByteRange range) implements Request {}

        /** A range that starts beyond the file: 416. */
        record Unsatisfiable() implements Request {}
    }

    long length() {
        return end - start + 1;
    }

    static Request parse(String header, long size) {
        if (header == null) {
            return new Request.Whole();
        }
        Matcher m = ONE.matcher(header);
        if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
            return new Request.Whole();
        }
        try {
            if (m.group(1).isEmpty()) {
                // the last n bytes
                long n = Long.parseLong(m.group(2));
                if (n == 0 || size == 0) {
                    return new Request.Unsatisfiable();
                }
                return new Request.Part(new ByteRange(Math.max(0, size - n), size - 1));
            }
            long start = Long.parseLong(m.group(1));
            long end = m.group(2).isEmpty() ? Long.MAX_VALUE : Long.parseLong(m.group(2));
            if (end < start) {
                // not a valid range: RFC 9110 has it ignored
                return new Request.Whole();
            }
            if (start >= size) {
                return new Request.Unsatisfiable();
            }
            return new Request.Part(new ByteRange(start, Math.min(end, size - 1)));
        } catch (NumberFormatException tooLong) {
            return new Request.Whole();
        }
    }
}
