/**
 * Computers that calculations run on, and each user's settings for them (authinfo):
 * {@code ComputerStore} and {@code AuthInfoStore} with their records. Once nodes reference a
 * computer, what it ran on (hostname, transport and scheduler types) is frozen, as provenance.
 *
 * <p>It builds on the graph and the database packages. The engine reads computers from here to
 * reach them for calculation jobs; the node model does not know this package.
 */
package dev.cairn.storage.graph.computers;
