/**
 * The hash's rounding of floating-point values to significant digits, shared with the graph, which
 * rounds attribute values the same way when it stores them; storage's own, not an API (an
 * architecture test keeps other modules off it).
 */
package dev.cairn.storage.hash.internal;
