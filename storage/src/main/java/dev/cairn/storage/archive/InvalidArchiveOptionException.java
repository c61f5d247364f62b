package dev.cairn.storage.archive;

import dev.cairn.storage.errors.InvalidInputException;

/** An export or import option that is not valid; the message says what would be. */
class InvalidArchiveOptionException extends InvalidInputException {

    public InvalidArchiveOptionException(String message) {
        super(message);
    }
}
