package dev.cairn.engine.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Placeholders in a shell job's arguments: {@code {name}}, a name of the {@code nodes} namespace
 * (a letter, then letters, digits and underscores), stands for that input; {@code {{} and
 * {@code }}} are literal braces. Braces around anything else are left as they are, so
 * {@code awk '{print $1}'} needs no escaping (aiida-shell, which uses Python's {@code str.format},
 * would take {@code print $1} for a placeholder). An argument may hold several placeholders.
 */
final class Placeholders {

    private Placeholders() {}

    /** The names of the placeholders in {@code argument}, in order, repeats included. */
    static List<String> names(String argument) {
        List<String> names = new ArrayList<>();
        scan(argument, name -> {
            names.add(name);
            return "";
        });
        return names;
    }

    /** {@code argument} with each placeholder replaced by {@code value.apply(name)} and escaped braces undone. */
    static String fill(String argument, UnaryOperator<String> value) {
        return scan(argument, value);
    }

    private static String scan(String argument, UnaryOperator<String> value) {
        StringBuilder out = new StringBuilder(argument.length());
        int i = 0;
        while (i < argument.length()) {
            char c = argument.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < argument.length() && argument.charAt(i + 1) == c) {
                out.append(c);
                i += 2;
                continue;
            }
            int end = c == '{' ? nameEnd(argument, i + 1) : -1;
            if (end > 0) {
                out.append(value.apply(argument.substring(i + 1, end)));
                i = end + 1;
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** The index of the '}' closing a name that starts at {@code from}, or -1 when none does. */
    private static int nameEnd(String text, int from) {
        if (from >= text.length() || !isAsciiLetter(text.charAt(from))) {
            return -1;
        }
        int i = from + 1;
        while (i < text.length()
                && (isAsciiLetter(text.charAt(i)) || isAsciiDigit(text.charAt(i)) || text.charAt(i) == '_')) {
            i++;
        }
        return i < text.length() && text.charAt(i) == '}' ? i : -1;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
