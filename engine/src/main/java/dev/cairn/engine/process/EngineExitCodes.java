package dev.cairn.engine.process;

/** The exit codes every process has (0–99 belong to the engine). */
public final class EngineExitCodes {

    /** The process failed and said no more. */
    public static final ExitCode ERROR_UNSPECIFIED =
            new ExitCode(1, "ERROR_UNSPECIFIED", "the process failed with an unspecified error", true);
    /** The engine's verdict on outputs that do not fit the spec: an unknown port or a value of the wrong class. */
    public static final ExitCode ERROR_INVALID_OUTPUT =
            new ExitCode(10, "ERROR_INVALID_OUTPUT", "the process returned an invalid output: {message}", true);
    /** The engine's verdict on a process that ended without a required output. */
    public static final ExitCode ERROR_MISSING_OUTPUT =
            new ExitCode(11, "ERROR_MISSING_OUTPUT", "the process did not register a required output: {message}", true);

    private EngineExitCodes() {}
}
