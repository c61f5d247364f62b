package dev.cairn.engine.process;

import java.util.List;

import dev.cairn.errors.InvalidInputException;

/**
 * What a calculation job's {@code prepare} decides besides the files it writes: the code's
 * command-line arguments, its standard streams, and the files to bring back.
 *
 * @param retrieveList files (or globs) in the work directory copied into the {@code retrieved} folder
 */
public record CalcInfo(
        List<String> arguments, String stdinName, String stdoutName, String stderrName, List<String> retrieveList) {

    public CalcInfo {
        arguments = List.copyOf(arguments);
        retrieveList = List.copyOf(retrieveList);
        for (String r : retrieveList) {
            checkRetrieveEntry(r);
        }
    }

    static void checkRetrieveEntry(String entry) {
        if (entry == null || entry.isBlank() || entry.startsWith("/") || entry.contains("..")) {
            throw new InvalidInputException(
                    "retrieve list entry '" + entry + "' must be a path relative to the work directory");
        }
    }
}
