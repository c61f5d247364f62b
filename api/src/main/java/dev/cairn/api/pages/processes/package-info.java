/**
 * The web view's processes: the list (filters in the URL, keyset paging both ways, live states, bulk
 * pause, play and kill) and one process's page (its call tree, inputs, outputs, report, how it ended,
 * its controls, and a calculation job's scheduler job and retrieved files). Both call
 * {@code api.processes}' services, as the REST API does.
 */
package dev.cairn.api.pages.processes;
