/**
 * cairn status: the health of the server, its database, broker, object store and workers in one screen.
 */
package dev.cairn.cli.commands.status;
