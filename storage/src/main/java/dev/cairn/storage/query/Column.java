package dev.cairn.storage.query;

/** One whitelisted column of an entity's table: only these names ever reach SQL text. */
record Column(String name, ColumnKind kind) {

    static Column of(String name, ColumnKind kind) {
        return new Column(name, kind);
    }
}
