package dev.cairn.storage.query;

/**
 * One whitelisted field of an entity's table: only these names ever reach SQL text. A stored column is
 * read as {@code <alias>.<name>}; a derived one is an expression over its row, written here (never from
 * a query) with {@code {t}} for the row's alias.
 *
 * @param derivation the expression of a derived field, or null for a stored column
 */
record Column(String name, ColumnKind kind, String derivation) {

    static Column of(String name, ColumnKind kind) {
        return new Column(name, kind, null);
    }

    static Column derived(String name, ColumnKind kind, String derivation) {
        return new Column(name, kind, derivation);
    }

    boolean isDerived() {
        return derivation != null;
    }
}
