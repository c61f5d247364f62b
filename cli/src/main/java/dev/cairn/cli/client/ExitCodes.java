package dev.cairn.cli.client;

/**
 * What {@code cairn} exits with, for scripts: documented in {@code cairn --help} and the
 * documentation ({@code docs/reference/command-line.md}).
 * Usage errors are picocli's 2; the rest say which side a failure was on.
 */
public final class ExitCodes {

    /** Done as asked. */
    public static final int OK = 0;
    /** What was asked ran and failed: a process finished failed, a check found a fault, a service is down. */
    public static final int FAILED = 1;
    /** The command line, or a value in it, is wrong (also the server's 400). */
    public static final int USAGE = 2;
    /** No such node, process, computer, group, ... (the server's 404). */
    public static final int NOT_FOUND = 3;
    /** No token, an unknown one, or one whose role does not allow this (401, 403). */
    public static final int REFUSED = 4;
    /** The request conflicts with what is stored (409): a name taken, a node still in use. */
    public static final int CONFLICT = 5;
    /** The server cannot be reached, or one of its services is away (503): try again later. */
    public static final int UNAVAILABLE = 6;
    /** Stopped by Ctrl-C (128 + SIGINT), after undoing nothing half done. */
    public static final int INTERRUPTED = 130;

    /** The exit codes as the help's footer lists them. */
    public static final String LEGEND = """
            Exit codes: 0 done, 1 failed (a process failed, a check found a fault, something is down), \
            2 usage or invalid input, 3 not found, 4 refused (token missing or not allowed), 5 conflict, \
            6 server unavailable, 130 interrupted.""";

    private ExitCodes() {}

    /** The exit code for an HTTP error status. */
    public static int ofStatus(int status) {
        return switch (status) {
            case 400, 405, 413, 415, 422 -> USAGE;
            case 401, 403 -> REFUSED;
            case 404, 410 -> NOT_FOUND;
            case 409, 412 -> CONFLICT;
            case 429, 502, 503, 504 -> UNAVAILABLE;
            default -> FAILED;
        };
    }
}
