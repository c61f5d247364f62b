package dev.cairn.engine.process;

import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What a calculation job's {@code prepare} decides besides the files it writes: the code's
 * command-line arguments, its standard streams, and the files to bring back.
 *
 * @param arguments    the code's arguments, each passed as one word (quoted in the script, so spaces
 *                     and {@code $} stay literal)
 * @param stdinName    the file in the work directory the code reads as its standard input; null: none
 * @param stdoutName   the file its standard output goes to; null: the job's own output
 * @param stderrName   the file its standard error goes to (the same name as {@code stdoutName}: both streams
 *                     into that one file); null: the job's own error stream
 * @param retrieveList files (or globs) in the work directory copied into the {@code retrieved} folder; a
 *                     glob ({@code *}, {@code ?}, {@code [...]} within a name) brings every file or folder
 *                     it matches
 * @param appendText   shell text run right after the code, before any other append text (so {@code $?} is the
 *                     code's exit status there); empty for none
 */
public record CalcInfo(
        List<String> arguments,
        String stdinName,
        String stdoutName,
        String stderrName,
        List<String> retrieveList,
        String appendText) {

    /**
     * Copies the lists; refuses a retrieve entry that is absolute or leaves the work directory
     * ({@code ..}); a null append text becomes empty.
     */
    public CalcInfo {
        arguments = List.copyOf(arguments);
        retrieveList = List.copyOf(retrieveList);
        for (String r : retrieveList) {
            checkRetrieveEntry(r);
        }
        appendText = appendText == null ? "" : appendText;
    }

    /** What to run and retrieve, with no text of the job's own after the code. */
    public CalcInfo(
            List<String> arguments, String stdinName, String stdoutName, String stderrName, List<String> retrieveList) {
        this(arguments, stdinName, stdoutName, stderrName, retrieveList, "");
    }

    static void checkRetrieveEntry(String entry) {
        if (entry == null || entry.isBlank() || entry.startsWith("/") || entry.contains("..")) {
            throw new InvalidInputException(
                    "retrieve list entry '" + entry + "' must be a path relative to the work directory");
        }
    }
}
