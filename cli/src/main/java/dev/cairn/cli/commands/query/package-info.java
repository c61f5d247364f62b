/**
 * cairn query: run a query of the graph on the server and print its rows.
 */
package dev.cairn.cli.commands.query;
