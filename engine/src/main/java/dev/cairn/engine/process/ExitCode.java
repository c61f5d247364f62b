package dev.cairn.engine.process;

import java.util.Objects;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * How a process ended: 0 is success, any other status a failure the process chose to
 * report. {@code invalidatesCache} keeps a node that ended this way from serving as a
 * cache source. A plugin declares its codes in the spec ({@link ProcessSpec.Builder#exitCode});
 * statuses 0–99 are the engine's ({@link EngineExitCodes}).
 *
 * @param status           0 for success, else a positive number, unique within a spec
 * @param label            an UPPER_SNAKE_CASE name ("ERROR_INVALID_OUTPUT")
 * @param message          what went wrong, for the user; may hold {placeholders} that {@link #format} fills
 * @param invalidatesCache a node that ended with this code is never reused from the cache (a failure that
 *                         another run might not repeat)
 */
public record ExitCode(int status, String label, String message, boolean invalidatesCache) {

    /** Success, the exit code of a process that reports no failure. */
    public static final ExitCode OK = new ExitCode(0, "OK", "", false);

    /** Refuses a negative status and a label that is not UPPER_SNAKE_CASE; a null message becomes empty. */
    public ExitCode {
        if (status < 0) {
            throw new InvalidInputException("exit status " + status + " is negative; statuses are 0 (ok) or positive");
        }
        Objects.requireNonNull(label, "label");
        if (!label.matches("[A-Z][A-Z0-9_]*")) {
            throw new InvalidInputException("exit code label '" + label + "' is not UPPER_SNAKE_CASE");
        }
        message = message == null ? "" : message;
    }

    /** A code that does not invalidate caching. */
    public static ExitCode of(int status, String label, String message) {
        return new ExitCode(status, label, message, false);
    }

    /** Whether this is success (status 0). */
    public boolean isOk() {
        return status == 0;
    }

    /** The same code with {placeholders} in its message filled from {@code values} (key, value, key, value...). */
    public ExitCode format(Object... values) {
        if (values.length % 2 != 0) {
            throw new InvalidInputException("format takes key, value pairs");
        }
        String m = message;
        for (int i = 0; i < values.length; i += 2) {
            m = m.replace("{" + values[i] + "}", String.valueOf(values[i + 1]));
        }
        return new ExitCode(status, label, m, invalidatesCache);
    }
}
