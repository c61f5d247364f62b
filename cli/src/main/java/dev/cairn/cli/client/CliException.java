package dev.cairn.cli.client;

import java.util.Optional;

/**
 * A failure to show as one line (and a hint what to do), with the exit code it ends the command with.
 * No stack trace unless {@code --verbose}: the message must say what was wrong on its own.
 */
public final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;
    private final String hint;

    public CliException(int exitCode, String message, String hint) {
        this(exitCode, message, hint, null);
    }

    public CliException(int exitCode, String message, String hint, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
        this.hint = hint;
    }

    /** A wrong value on the command line or in a file it names. */
    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message, null);
    }

    public int exitCode() {
        return exitCode;
    }

    /** What to do about it, when there is something to say beyond the message. */
    public Optional<String> hint() {
        return Optional.ofNullable(hint);
    }
}
