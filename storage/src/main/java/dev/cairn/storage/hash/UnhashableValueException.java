package dev.cairn.storage.hash;

import java.util.ArrayDeque;
import java.util.Deque;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A value the canonical form cannot hold. It is thrown deep in the walk and collects its path
 * on the way out ({@link #inside}), so that the happy path never builds path strings;
 * {@link NodeHasher} turns it into an {@link IllegalArgumentException} naming the path.
 */
final class UnhashableValueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final int MAX_SHOWN_STEPS = 16;

    private final transient Deque<String> path = new ArrayDeque<>();

    UnhashableValueException(String reason) {
        super(reason, null, false, false);
    }

    /** Adds the step from the enclosing value, e.g. {@code .cell} or {@code [0]}, and returns this. */
    UnhashableValueException inside(String step) {
        path.addFirst(step);
        return this;
    }

    /** Adds a map key as a step: {@code .key}, or {@code ["a.b"]} when the key would read ambiguously. */
    UnhashableValueException insideKey(String key) {
        return inside(plainKey(key) ? "." + key : "[\"" + key + "\"]");
    }

    InvalidInputException at(String root) {
        String steps = String.join("", path);
        if (path.size() > MAX_SHOWN_STEPS) { // a self-containing map: the start says enough
            steps = String.join("", path.stream().limit(MAX_SHOWN_STEPS).toList()) + "...";
        }
        return new InvalidInputException(root + steps + ": " + getMessage());
    }

    private static boolean plainKey(String key) {
        if (key.isEmpty()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '.' || c == '[' || c == ']' || c == '"' || Character.isWhitespace(c)) {
                return false;
            }
        }
        return true;
    }
}
