/**
 * The hash of a node: its canonical serialisation, digested with BLAKE2b-256 by
 * {@link dev.cairn.storage.hash.NodeHasher} from a {@link dev.cairn.storage.hash.HashInput}, with
 * floating-point values rounded to significant digits first. Equal calculations on equal inputs get
 * equal hashes, which is what caching finds them by.
 *
 * <p>It depends on nothing else of Cairn but the error families (and BouncyCastle for the digest),
 * so the canonical form never shifts with the graph or the database; an architecture test holds it
 * so. The graph decides what goes into a node's hash and calls it when a node is stored.
 */
package dev.cairn.storage.hash;
