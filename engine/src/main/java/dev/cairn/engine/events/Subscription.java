package dev.cairn.engine.events;

/** A listener on the engine's broadcasts; closing it stops the deliveries. */
public interface Subscription extends AutoCloseable {

    @Override
    void close();
}
