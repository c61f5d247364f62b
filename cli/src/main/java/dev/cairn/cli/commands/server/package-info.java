/**
 * cairn server: start and stop the server jar on this machine, ask whether it is up and read its log.
 */
package dev.cairn.cli.commands.server;
