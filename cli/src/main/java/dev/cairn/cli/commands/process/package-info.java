/**
 * cairn process: submit, list, show, watch, pause, play and kill processes.
 */
package dev.cairn.cli.commands.process;
