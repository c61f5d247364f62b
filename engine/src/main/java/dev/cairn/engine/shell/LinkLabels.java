package dev.cairn.engine.shell;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The link label of an output file, from its name, by aiida-shell's rule: every run of
 * characters other than letters, digits and '_' becomes one '_', runs of '_' become one, and a
 * name that starts with a digit is prefixed with {@code aiida_shell_} ({@code results.json} →
 * {@code results_json}, {@code 1.out} → {@code aiida_shell_1_out}). Cairn's port names also may
 * not begin or end with '_', so those are dropped ({@code .hidden} → {@code hidden}); a label that
 * is taken already gets {@code _2}, {@code _3}, … rather than replace the other output.
 */
final class LinkLabels {

    static final String DIGIT_PREFIX = "aiida_shell_";

    private static final Pattern OTHER = Pattern.compile("[^0-9a-zA-Z_]+");
    private static final Pattern UNDERSCORES = Pattern.compile("__+");

    private LinkLabels() {}

    /** The label of a file named {@code filename}, by the rule alone. */
    static String of(String filename) {
        String name = filename.matches("^[0-9].*") ? DIGIT_PREFIX + filename : filename;
        String label = UNDERSCORES.matcher(OTHER.matcher(name).replaceAll("_")).replaceAll("_");
        label = label.replaceAll("^_+|_+$", "");
        if (label.isEmpty()) {
            return "file";
        }
        return Character.isDigit(label.charAt(0)) ? DIGIT_PREFIX + label : label;
    }

    /** The label of {@code filename}, with a number appended while it is among {@code taken}. */
    static String unique(String filename, Set<String> taken) {
        String label = of(filename);
        String candidate = label;
        for (int n = 2; taken.contains(candidate); n++) {
            candidate = label + "_" + n;
        }
        return candidate;
    }
}
