/** The compact query expression of {@code cairn query} and its translation into the query builder's JSON. */
package dev.cairn.cli.query;
