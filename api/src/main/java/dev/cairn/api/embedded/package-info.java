/**
 * The embedded mode's services: a real PostgreSQL (zonky's binaries) whose cluster lives under the
 * data directory, and an AMQP 0-9-1 broker in this JVM (Qpid Broker-J). The server starts them when
 * no database or broker is configured; the engine then runs the very code it runs against an
 * external PostgreSQL and RabbitMQ.
 */
package dev.cairn.api.embedded;
