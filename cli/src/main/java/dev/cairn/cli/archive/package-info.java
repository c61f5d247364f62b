/**
 * Archive files on this host, without a server: what a file says of itself (the header of Cairn's format,
 * {@code docs/archive-format.md}; an AiiDA {@code .aiida} zip's {@code metadata.json} and row counts), and a
 * meter that counts the rows and objects of a Cairn archive as it streams by, for a download's progress.
 */
package dev.cairn.cli.archive;
