/**
 * Queries over REST: the query builder's JSON form posted whole, its rows returned a page at a
 * time or streamed as JSON lines from a database cursor.
 */
package dev.cairn.api.query;
