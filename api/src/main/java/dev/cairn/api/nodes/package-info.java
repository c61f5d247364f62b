/**
 * Nodes of the provenance graph over REST: lists with a small URL filter language and keyset
 * paging, one node with its attributes, extras and counts of its links, its links, ancestors and
 * descendants, its files (listed, downloaded with ranges, a folder as a zip stream), comments,
 * and changes to label, description and extras.
 */
package dev.cairn.api.nodes;
