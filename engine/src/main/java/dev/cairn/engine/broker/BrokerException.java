package dev.cairn.engine.broker;

/** The broker could not be reached or refused an operation. */
public final class BrokerException extends RuntimeException {

    public BrokerException(String message, Throwable cause) {
        super(message, cause);
    }
}
