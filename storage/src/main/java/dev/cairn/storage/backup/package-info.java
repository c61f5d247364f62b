/**
 * Backups of an installation while it runs, and their restore into an empty one: the database as a
 * COPY of every table of Cairn's schema in one REPEATABLE READ snapshot, then the object store, copied
 * incrementally against the previous backup (unchanged files hard-linked).
 */
package dev.cairn.storage.backup;
