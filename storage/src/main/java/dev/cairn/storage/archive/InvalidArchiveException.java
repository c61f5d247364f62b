package dev.cairn.storage.archive;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * An archive that cannot be read or imported as it is: truncated, corrupt, of an unknown format or
 * version, or with rows that break the graph's rules. The message names the part and row (or the file
 * entry) and what was wrong; nothing of the archive was imported.
 */
public class InvalidArchiveException extends InvalidInputException {

    /** An archive that cannot be read, as {@code message} says. */
    public InvalidArchiveException(String message) {
        super(message);
    }

    /** An archive that cannot be read, as {@code message} says, found by {@code cause}. */
    public InvalidArchiveException(String message, Throwable cause) {
        super(message, cause);
    }
}
