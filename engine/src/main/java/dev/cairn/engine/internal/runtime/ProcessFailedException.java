package dev.cairn.engine.internal.runtime;

/** A process's own code failed with a checked exception; the process is excepted with it. */
final class ProcessFailedException extends RuntimeException {

    public ProcessFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
