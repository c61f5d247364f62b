/**
 * The web view's provenance graph: the page of a node's neighbourhood, laid out on the server
 * (layered, fan-outs folded) so the browser only draws positions, and the same drawing as SVG to
 * download. Used by the pages alone.
 */
package dev.cairn.api.pages.graph;
