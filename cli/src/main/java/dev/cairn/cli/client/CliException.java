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
    private final int status;

    public CliException(int exitCode, String message, String hint) {
        this(exitCode, message, hint, null);
    }

    public CliException(int exitCode, String message, String hint, Throwable cause) {
        this(exitCode, message, hint, cause, 0);
    }

    private CliException(int exitCode, String message, String hint, Throwable cause, int status) {
        super(message, cause);
        this.exitCode = exitCode;
        this.hint = hint;
        this.status = status;
    }

    /** The server's answer to a request as a failure: {@code status} is its HTTP status. */
    static CliException answered(int status, String message, String hint) {
        return new CliException(ExitCodes.ofStatus(status), message, hint, null, status);
    }

    /** A wrong value on the command line or in a file it names. */
    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message, null);
    }

    public int exitCode() {
        return exitCode;
    }

    /**
     * Whether the server answered the request with a refusal, which changes nothing there: a 4xx but a timeout
     * (408) or too many requests (429). Not so for a failure on the way, whose request may have been done.
     */
    public boolean refusedByServer() {
        return status >= 400 && status < 500 && status != 408 && status != 429;
    }

    /** What to do about it, when there is something to say beyond the message. */
    public Optional<String> hint() {
        return Optional.ofNullable(hint);
    }
}
