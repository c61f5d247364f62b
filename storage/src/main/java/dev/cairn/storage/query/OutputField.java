package dev.cairn.storage.query;

/**
 * Where one projection sits in the result set and how to read it.
 *
 * @param tag    the vertex (or edge) tag
 * @param key    the projection's key ({@link Projection#key()})
 * @param reader how the columns become a Java value
 * @param column the first JDBC column (1-based)
 * @param width  how many columns it spans ({@code *} spans a whole row)
 * @param atJsonPath whether it is a value at a path into a JSON column, which may be a string, rather than
 *               a column or a whole document
 */
record OutputField(String tag, String key, ValueReader reader, int column, int width, boolean atJsonPath) {}
