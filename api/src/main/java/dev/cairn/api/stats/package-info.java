/**
 * {@code /api/v1/statistics}: how many nodes there are per node type, process type and day of
 * creation, and how many processes per state, for everyone or one user, read from the counts the
 * database keeps (storage's {@code GraphStatistics}), so it answers in milliseconds on any size of
 * graph. {@link dev.cairn.api.stats.TallyCompaction} folds the counts' recent changes in every few
 * seconds. Reading needs the role read.
 */
package dev.cairn.api.stats;
