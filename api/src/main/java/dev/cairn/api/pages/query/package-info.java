/**
 * The query page of the web view: a query built in a form or pasted as the query builder's JSON, kept in
 * the URL, its rows as a table a page at a time, and every row as CSV. Queries run through
 * {@link dev.cairn.api.query.QueryService}, as the REST API's do.
 */
package dev.cairn.api.pages.query;
