/**
 * {@code /api/v1/process-types} and {@code /api/v1/processes}: the process types with their input
 * and output schemas, launching one process or a batch from JSON, listing and showing processes,
 * their call trees and reports, pause, play and kill (one, or many by a filter), and caching
 * (explaining a hit or a miss, keeping a node from being a cache source).
 */
package dev.cairn.api.processes;
