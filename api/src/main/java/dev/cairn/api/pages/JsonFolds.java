package dev.cairn.api.pages;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.core.io.JsonStringEncoder;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A node's attributes or extras as the node page folds them: one level of the document at a time, a row
 * per key or item, each object or list a fold that says its size and whose rows are fetched when it is
 * opened, a long list a page of rows at a time, a long string cut. A 2 MB document costs the page what
 * the reader opens of it, not a DOM node per value.
 */
final class JsonFolds {

    /** Rows of one object or list shown at a time; a button fetches the next ones. */
    static final int ROWS = 100;

    /** Characters of a string shown before it is cut; the whole string is a click away. */
    static final int STRING = 200;

    private JsonFolds() {}

    /**
     * The rows {@code from} on of the object or list at {@code pointer} (a JSON Pointer, RFC 6901: {@code ""}
     * the document, {@code /cell/0} the first item of its key {@code cell}) in {@code document}, the
     * attributes or extras named {@code part}.
     */
    static JsonLevel level(String part, Map<String, Object> document, String pointer, int from) {
        Object at = resolve(part, document, pointer);
        if (from < 0) {
            throw new InvalidInputException("'from' is " + from + ": give the index of the first row, 0 or more");
        }
        List<JsonRow> rows = new ArrayList<>();
        int total;
        if (at instanceof Map<?, ?> map) {
            total = map.size();
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (i >= from + ROWS) {
                    break;
                }
                if (i++ >= from) {
                    String key = (String) e.getKey();
                    rows.add(row(key, false, pointer + "/" + escape(key), e.getValue()));
                }
            }
        } else if (at instanceof List<?> list) {
            total = list.size();
            for (int i = from; i < Math.min(total, from + ROWS); i++) {
                rows.add(row(String.valueOf(i), true, pointer + "/" + i, list.get(i)));
            }
        } else {
            throw new InvalidInputException(
                    "'" + pointer + "' in the " + part + " is a single value, not an object or a list: it has no rows");
        }
        int next = Math.min(total, from + ROWS);
        return new JsonLevel(part, pointer, rows, next, Math.max(0, total - next));
    }

    private static Object resolve(String part, Map<String, Object> document, String pointer) {
        if (!pointer.isEmpty() && !pointer.startsWith("/")) {
            throw new InvalidInputException("'" + pointer + "' is not a JSON Pointer: it starts with '/' ('/cell/0')");
        }
        Object at = document;
        String walked = "";
        for (String token :
                pointer.isEmpty() ? new String[0] : pointer.substring(1).split("/", -1)) {
            String key = token.replace("~1", "/").replace("~0", "~");
            walked = walked + "/" + token;
            if (at instanceof Map<?, ?> map && map.containsKey(key)) {
                at = map.get(key);
            } else if (at instanceof List<?> list
                    && key.matches("0|[1-9][0-9]{0,8}")
                    && Integer.parseInt(key) < list.size()) {
                at = list.get(Integer.parseInt(key));
            } else {
                throw new InvalidInputException("the " + part + " have nothing at '" + walked + "'");
            }
        }
        return at;
    }

    private static JsonRow row(String key, boolean item, String pointer, Object value) {
        return switch (value) {
            case Map<?, ?> map
            when !map.isEmpty() ->
                JsonRow.fold(key, item, pointer, "object", size(map.size(), "key", "keys", "{", "}"));
            case List<?> list
            when !list.isEmpty() ->
                JsonRow.fold(key, item, pointer, "array", size(list.size(), "item", "items", "[", "]"));
            case Map<?, ?> empty -> JsonRow.value(key, item, "object", "{}");
            case List<?> empty -> JsonRow.value(key, item, "array", "[]");
            case String s
            when s.length() > STRING ->
                JsonRow.longString(
                        key,
                        item,
                        quoted(cut(s)) + "…",
                        quoted(s),
                        String.format(Locale.ROOT, "%,d characters", s.codePointCount(0, s.length())));
            case String s -> JsonRow.value(key, item, "string", quoted(s));
            case Number n -> JsonRow.value(key, item, "number", n.toString());
            case Boolean b -> JsonRow.value(key, item, "boolean", b.toString());
            case null -> JsonRow.value(key, item, "null", "null");
            default -> JsonRow.value(key, item, "string", quoted(value.toString()));
        };
    }

    private static String size(int n, String one, String many, String open, String close) {
        return open + String.format(Locale.ROOT, "%,d", n) + " " + (n == 1 ? one : many) + close;
    }

    /** The string's beginning, never half a character that takes two chars. */
    private static String cut(String s) {
        return s.substring(0, Character.isHighSurrogate(s.charAt(STRING - 1)) ? STRING - 1 : STRING);
    }

    /** The string as JSON writes it: in quotes, with its quotes, backslashes and control characters escaped. */
    private static String quoted(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        JsonStringEncoder.getInstance().quoteAsString(s, out);
        return out.append('"').toString();
    }

    /** A key as a JSON Pointer token: {@code ~} and {@code /} escaped. */
    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /**
     * One level's rows, {@code next} the index of the first row not shown and {@code remaining} how many
     * follow it.
     */
    public record JsonLevel(String part, String pointer, List<JsonRow> rows, int next, int remaining) {
        /** What the button that fetches the next rows says. */
        public String more() {
            return String.format(Locale.ROOT, "Show %,d more of %,d", Math.min(ROWS, remaining), remaining);
        }
    }

    /**
     * A row: its key (an index in a list), and a fold ({@code kind} object or array, its {@code size} and
     * {@code pointer}) or a value as JSON writes it ({@code whole} the whole string when {@code text} is cut).
     */
    public record JsonRow(
            String key, boolean item, String kind, String text, String whole, String size, String pointer) {
        static JsonRow fold(String key, boolean item, String pointer, String kind, String size) {
            return new JsonRow(key, item, kind, null, null, size, pointer);
        }

        static JsonRow value(String key, boolean item, String kind, String text) {
            return new JsonRow(key, item, kind, text, null, null, null);
        }

        static JsonRow longString(String key, boolean item, String text, String whole, String size) {
            return new JsonRow(key, item, "string", text, whole, size, null);
        }

        public boolean fold() {
            return pointer != null;
        }
    }
}
