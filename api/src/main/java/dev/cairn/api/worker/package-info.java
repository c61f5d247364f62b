/**
 * The worker role: runs the engine's worker in the server's JVM when {@code cairn.roles} names it,
 * and stops it gracefully with the server.
 */
package dev.cairn.api.worker;
