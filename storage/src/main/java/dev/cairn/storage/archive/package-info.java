/**
 * Archives: provenance moved between installations, and to and from AiiDA. Cairn's own format
 * ({@code docs/archive-format.md}) streams both ways; AiiDA's {@code .aiida} ({@code main_0001}) is read
 * and written through the same {@link dev.cairn.storage.archive.ArchiveReader} and
 * {@link dev.cairn.storage.archive.ArchiveWriter}. Export closes a node set under the EXPORT traversal
 * rules and streams it from one snapshot; import stages the rows in the database, checks them by the
 * graph's rules, puts the objects straight into packs, and commits all or nothing.
 */
package dev.cairn.storage.archive;
