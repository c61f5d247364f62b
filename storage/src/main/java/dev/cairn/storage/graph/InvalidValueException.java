package dev.cairn.storage.graph;

import dev.cairn.storage.errors.InvalidInputException;

/** An attribute or extra cannot be stored: a key with '.', a non-finite float, a type JSON cannot hold. */
final class InvalidValueException extends InvalidInputException {

    public InvalidValueException(String message) {
        super(message);
    }
}
