package dev.cairn.storage.graph;

/** An attribute or extra cannot be stored: a key with '.', a non-finite float, a type JSON cannot hold. */
public final class InvalidValueException extends GraphException {

    public InvalidValueException(String message) {
        super(message);
    }
}
