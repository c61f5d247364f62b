/**
 * Queries over the provenance graph: a {@link dev.cairn.storage.query.QuerySpec} (a path of
 * vertices joined by relationships, with filters, projections, order and paging), built in Java
 * with {@link dev.cairn.storage.query.QueryBuilder} or read from its JSON form, validated as a
 * whole, compiled by {@link dev.cairn.storage.query.SqlCompiler} to one SQL statement with bound
 * parameters, and run by {@link dev.cairn.storage.query.GraphQuery} into rows, streams or cursors.
 *
 * <p>It builds on the graph's node model and on the database package; the graph does not know it
 * (an architecture test holds that). The demos and the benchmarks query through it, as the server
 * will.
 */
package dev.cairn.storage.query;
