package dev.cairn.engine.scheduler;

import java.util.regex.Pattern;

/** Quoting for the POSIX shell that runs scripts and commands on the computer. */
final class Shell {

    /**
     * Words that mean the same to the shell quoted or not; left bare so scripts stay readable. No '=':
     * a bare {@code A=b} first on a line would be an assignment, not a command.
     */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:,+@-]+");

    private Shell() {}

    /** {@code word} as one shell word, with nothing expanded. */
    static String quote(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\"'\"'") + "'";
    }
}
