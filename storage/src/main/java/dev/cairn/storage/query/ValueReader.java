package dev.cairn.storage.query;

/** The Java type a projected value is read as. */
enum ValueReader {
    LONG,
    TEXT,
    UUID,
    TIMESTAMP,
    JSON,
    DOUBLE,
    BOOLEAN,
    NUMBER,
    NODE_ROW(Table.NODE),
    GROUP_ROW(Table.GROUP),
    COMPUTER_ROW(Table.COMPUTER),
    USER_ROW(Table.USER),
    COMMENT_ROW(Table.COMMENT),
    LOG_ROW(Table.LOG),
    LINK_ROW(Table.LINK);

    private final Table table;

    ValueReader() {
        this(null);
    }

    ValueReader(Table table) {
        this.table = table;
    }

    /** For whole rows: the table, whose columns the row spans in order. */
    Table table() {
        return table;
    }

    static ValueReader forColumn(ColumnKind kind) {
        return switch (kind) {
            case LONG -> LONG;
            case TEXT -> TEXT;
            case UUID -> UUID;
            case TIMESTAMP -> TIMESTAMP;
            case JSON -> JSON;
        };
    }

    static ValueReader forRow(Table table) {
        for (ValueReader r : values()) {
            if (r.table == table) {
                return r;
            }
        }
        throw new IllegalStateException("no row reader for " + table.sqlName());
    }

    static ValueReader forCast(Cast cast) {
        return switch (cast) {
            case FLOAT -> DOUBLE;
            case INTEGER -> LONG;
            case TEXT -> TEXT;
            case BOOLEAN -> BOOLEAN;
            case DATE -> TIMESTAMP;
            case JSON -> JSON;
        };
    }
}
