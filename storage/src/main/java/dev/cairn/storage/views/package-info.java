/**
 * Reads shaped like a server's answers, for what the query builder does not express or what must cost
 * one fixed statement: one node with its owner, computer and link counts, and the look-ups by which
 * clients name nodes ({@link dev.cairn.storage.views.NodeViews}).
 *
 * <p>It builds on the graph and the database; nothing below it knows it. A server reads through it
 * (and through the {@link dev.cairn.storage.Storage} that hands it out) instead of writing SQL of its
 * own.
 */
package dev.cairn.storage.views;
