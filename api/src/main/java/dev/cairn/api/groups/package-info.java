/**
 * {@code /api/v1/groups}: named sets of nodes. Made as the caller, listed and shown with their node
 * counts, relabelled, described and given extras, deleted (their nodes stay), and filled or emptied
 * by node uuid, all of a request's changes or none; their nodes are read a page at a time. A group
 * is named by label (among the groups of its type, {@code core} unless {@code ?type=} says
 * otherwise) or by uuid. Reading needs the role read, changing submit.
 */
package dev.cairn.api.groups;
