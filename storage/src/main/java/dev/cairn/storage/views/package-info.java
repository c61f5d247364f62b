/**
 * Reads shaped like a server's answers: one node with its owner, computer and link counts, and the
 * look-ups by which clients name nodes ({@link dev.cairn.storage.views.NodeViews}); processes as lists,
 * one in full, call trees and reports ({@link dev.cairn.storage.views.ProcessViews}, whose lists and
 * filters are queries of the query builder); the graph's size ({@link dev.cairn.storage.views.GraphSizes}).
 * The hottest reads and those the query builder does not express (a node's link counts, recursive call
 * trees) are fixed statements here.
 *
 * <p>It builds on the graph, its queries and the database; nothing below it knows it. A server reads
 * through it (and through the {@link dev.cairn.storage.Storage} that hands it out) instead of writing
 * SQL of its own.
 */
package dev.cairn.storage.views;
