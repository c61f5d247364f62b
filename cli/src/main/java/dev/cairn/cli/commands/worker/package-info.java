/**
 * cairn worker: start a worker, a JVM that runs processes from the broker, on this host.
 */
package dev.cairn.cli.commands.worker;
