package dev.cairn.cli.options;

import java.nio.file.Path;
import java.util.Map;

/**
 * The environment variables and working directory the command line sees: the process's own, or
 * those a test runs a command with (in-process tests cannot change the JVM's environment).
 */
public final class Environment {

    private static volatile Map<String, String> variables = System.getenv();
    private static volatile Path workingDirectory = Path.of("").toAbsolutePath();

    private Environment() {}

    public static Map<String, String> variables() {
        return variables;
    }

    public static Path workingDirectory() {
        return workingDirectory;
    }

    /** For tests: the variables and directory commands see from now on. */
    public static void set(Map<String, String> newVariables, Path newWorkingDirectory) {
        variables = Map.copyOf(newVariables);
        workingDirectory = newWorkingDirectory;
    }

    /** For tests: back to the process's own. */
    public static void reset() {
        set(System.getenv(), Path.of("").toAbsolutePath());
    }
}
