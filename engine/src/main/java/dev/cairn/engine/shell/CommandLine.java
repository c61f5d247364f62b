package dev.cairn.engine.shell;

import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A command line split into words as a POSIX shell splits it (Python's {@code shlex.split}, which
 * aiida-shell uses): blanks separate words; single quotes keep everything literal; double quotes
 * keep all but {@code \"}, {@code \\}, {@code \$} and {@code \`}; a backslash outside quotes keeps
 * the next character. Nothing is expanded: {@code $HOME}, {@code *} and {@code ~} stay as they are
 * (a job's arguments are passed as words, never through a shell).
 */
public final class CommandLine {

    private CommandLine() {}

    /**
     * The words of {@code line}.
     *
     * @throws InvalidInputException for an empty line or one whose quotes do not close
     */
    public static List<String> split(String line) {
        if (line == null || line.isBlank()) {
            throw new InvalidInputException(
                    "the command is empty: give the program and its arguments, e.g. 'wc -l {file}'");
        }
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int close = line.indexOf('\'', i + 1);
                if (close < 0) {
                    throw unclosed(line, "single", i);
                }
                word.append(line, i + 1, close);
                inWord = true;
                i = close + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 < line.length()) {
                    if (line.charAt(i + 1) != '\n') {
                        word.append(line.charAt(i + 1));
                        inWord = true;
                    }
                    i += 2;
                } else {
                    throw new InvalidInputException("the command '" + line + "' ends with a lone backslash");
                }
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Reads a double-quoted part that starts at {@code from} into {@code word}; returns the index after its end. */
    private static int doubleQuoted(String line, int from, StringBuilder word) {
        int i = from;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < line.length() && "\"\\$`\n".indexOf(line.charAt(i + 1)) >= 0) {
                if (line.charAt(i + 1) != '\n') {
                    word.append(line.charAt(i + 1));
                }
                i += 2;
                continue;
            }
            word.append(c);
            i++;
        }
        throw unclosed(line, "double", from - 1);
    }

    private static InvalidInputException unclosed(String line, String kind, int at) {
        return new InvalidInputException("the command '" + line + "' has a " + kind + " quote at character " + (at + 1)
                + " that is never closed");
    }
}
