/**
 * cairn shell: run any program as a calculation job, its files as inputs and outputs in the graph.
 */
package dev.cairn.cli.commands.shell;
