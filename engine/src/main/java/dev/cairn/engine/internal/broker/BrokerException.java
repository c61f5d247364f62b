package dev.cairn.engine.internal.broker;

import dev.cairn.storage.errors.UnavailableException;

/** The broker could not be reached or refused an operation. */
public final class BrokerException extends UnavailableException {

    public BrokerException(String message, Throwable cause) {
        super(message, cause);
    }
}
