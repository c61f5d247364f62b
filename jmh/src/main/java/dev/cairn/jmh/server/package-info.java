/**
 * The server measured from the outside: {@code EventStreamLoad} submits batches of work chains over
 * HTTP, follows them with a thousand event streams, and times concurrent requests. It needs a
 * running server (its jar is not a dependency of this module); {@code jmh/server-load.sh} starts
 * one against PostgreSQL and RabbitMQ and runs it.
 */
package dev.cairn.jmh.server;
