package dev.cairn.api.config;

import java.util.Optional;

/**
 * Why the server cannot start, when its operator must change something first (a setting, a password, a
 * permission) and starting again as it is would fail again: the server prints the message as one line,
 * {@code cairn: <message>}, and exits with {@link #EXIT_STATUS} ({@link StartupProblemReporter}).
 */
public final class StartupProblem extends RuntimeException {

    /** The exit status of a server that met a start-up problem (systemd's units do not restart on it). */
    public static final int EXIT_STATUS = 2;

    public StartupProblem(String message, Throwable cause) {
        super(message, cause);
    }

    /** The start-up problem among {@code failure} and its causes, if there is one. */
    public static Optional<StartupProblem> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StartupProblem problem) {
                return Optional.of(problem);
            }
        }
        return Optional.empty();
    }
}
