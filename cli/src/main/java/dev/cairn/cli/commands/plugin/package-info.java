/**
 * cairn plugin: the process, data, parser and scheduler kinds the server knows.
 */
package dev.cairn.cli.commands.plugin;
