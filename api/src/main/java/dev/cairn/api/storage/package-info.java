/**
 * The installation's storage as a whole: counts and sizes, maintenance of the object store, validation
 * of the store against the graph, and backups taken while the server runs.
 */
package dev.cairn.api.storage;
