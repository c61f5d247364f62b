/**
 * Cairn's side of the archive comparison with aiida-core ({@code jmh/compare-archive.sh}): the shared
 * workload of {@code jmh/archive-peer/} loaded by COPY into an installation, then exported, imported into
 * an empty one, imported again, and AiiDA's archive of the same graph imported, each phase timed with
 * its heap peak.
 */
package dev.cairn.jmh.archive;
