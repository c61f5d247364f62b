/**
 * The graph's own machinery that other packages of storage share and nothing outside storage may use
 * (an architecture test): the statistics' tallies of the nodes Cairn inserts, which every statement
 * that inserts nodes (the graph store's and the archive import's) must write.
 */
package dev.cairn.storage.graph.internal;
