/**
 * The demos that {@code demo.sh} runs from {@code examples/target/demos.jar}: the object store on a
 * real folder, the provenance graph on PostgreSQL, and the engine with workers on RabbitMQ, each
 * printing what every step did.
 *
 * <p>They use the public APIs of the object store, storage and the engine, as an application would,
 * and the example plugin; nothing depends on them.
 */
package dev.cairn.examples.demo;
