/**
 * Internal: the only code that talks to RabbitMQ. A self-recovering connection, the durable task
 * queue (published with confirms, consumed with a prefetch of the worker's slots), the events
 * exchange for state changes and control signals, and their wire forms.
 *
 * <p>Not for plugins or the server, which use the public packages; the engine's architecture tests
 * keep the plugin API off it and its types out of every public signature not marked
 * {@code @Internal}, and keep every other package off the RabbitMQ client. The engine, the workers
 * and process control use it.
 */
package dev.cairn.engine.internal.broker;
