package dev.cairn.engine.process;

/** The exit codes every process has (0–99 belong to the engine). */
public final class ExitCodes {

    public static final ExitCode ERROR_UNSPECIFIED =
            new ExitCode(1, "ERROR_UNSPECIFIED", "the process failed with an unspecified error", true);
    public static final ExitCode ERROR_INVALID_OUTPUT =
            new ExitCode(10, "ERROR_INVALID_OUTPUT", "the process returned an invalid output: {message}", true);
    public static final ExitCode ERROR_MISSING_OUTPUT =
            new ExitCode(11, "ERROR_MISSING_OUTPUT", "the process did not register a required output: {message}", true);

    private ExitCodes() {}
}
