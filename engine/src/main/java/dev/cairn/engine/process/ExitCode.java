package dev.cairn.engine.process;

import java.util.Objects;

import dev.cairn.errors.InvalidInputException;

/**
 * How a process ended: 0 is success, any other status a failure the process chose to
 * report. {@code invalidatesCache} keeps a node that ended this way from serving as a
 * cache source.
 */
public record ExitCode(int status, String label, String message, boolean invalidatesCache) {

    public static final ExitCode OK = new ExitCode(0, "OK", "", false);

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

    public static ExitCode of(int status, String label, String message) {
        return new ExitCode(status, label, message, false);
    }

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
