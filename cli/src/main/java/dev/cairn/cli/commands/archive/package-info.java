/**
 * cairn archive: create an archive of nodes on the server, import one (Cairn's or AiiDA's format), and inspect one on this machine without a server.
 */
package dev.cairn.cli.commands.archive;
