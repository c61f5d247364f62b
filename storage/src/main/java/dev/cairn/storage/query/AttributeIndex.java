package dev.cairn.storage.query;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * An index an operator declared on one attribute of the nodes, so that queries filtering on it read
 * the index rather than every node's attributes.
 *
 * @param key   the attribute's path under {@code attributes}, elements separated by dots ({@code energy},
 *              {@code cell.0.0})
 * @param type  which of its values it holds, and so which comparisons it serves
 * @param name  the index's name in the database
 * @param state whether the planner may use it
 * @param bytes its size on disk
 */
public record AttributeIndex(String key, Type type, String name, State state, long bytes) {

    /** The values an index holds; a node whose value at the key is of another JSON type has none in it. */
    public enum Type {
        /** JSON numbers, as {@code numeric}: serves {@code ==}, {@code in}, {@code <}, {@code <=}, {@code >}, {@code >=} with numbers. */
        NUMBER,
        /** JSON strings, as {@code text}: serves {@code ==}, {@code in}, {@code <}, {@code <=}, {@code >}, {@code >=} with strings. */
        STRING;

        /** The name in requests and listings: {@code number}, {@code string}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The type named {@code label}; an unknown name is an error naming the known ones. */
        public static Type of(String label) {
            for (Type t : values()) {
                if (t.label().equals(label)) {
                    return t;
                }
            }
            throw new InvalidInputException("cannot index attributes of type '" + label + "': the types are "
                    + Arrays.stream(values()).map(Type::label).toList());
        }
    }

    /** Whether an index is usable. */
    public enum State {
        /** Built and valid: the planner uses it. */
        READY,
        /** Being built, by this request or another: the planner does not use it yet. */
        BUILDING,
        /** Left invalid by a build that failed or was cancelled: unused, but written on every store; adding it again rebuilds it. */
        INVALID;

        /** The name in listings: {@code ready}, {@code building}, {@code invalid}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The longest key accepted, in characters. */
    public static final int MAX_KEY_LENGTH = 200;

    /** The path elements of {@code key}, checked: not empty, no empty element, no control character, not too long. */
    static List<String> path(String key) {
        if (key == null || key.isEmpty()) {
            throw new InvalidInputException(
                    "an attribute index needs a key: the attribute's path, e.g. energy or cell.0.0");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new InvalidInputException("cannot index attribute key '" + key.substring(0, 40) + "…': it has "
                    + key.length() + " characters, at most " + MAX_KEY_LENGTH + " are accepted");
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                throw new InvalidInputException("cannot index attribute key '" + key.replaceAll("\\p{Cntrl}", "?")
                        + "': it holds a control character");
            }
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
            throw new InvalidInputException("cannot index attribute key '" + key + "': it is not valid Unicode");
        }
        List<String> path = Arrays.asList(key.split("\\.", -1));
        if (path.contains("")) {
            throw new InvalidInputException("cannot index attribute key '" + key
                    + "': it has an empty path element (write a.b, elements separated by single dots)");
        }
        return path;
    }
}
