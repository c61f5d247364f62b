package dev.cairn.storage.query;

import static dev.cairn.storage.query.ColumnKind.JSON;
import static dev.cairn.storage.query.ColumnKind.LONG;
import static dev.cairn.storage.query.ColumnKind.TEXT;
import static dev.cairn.storage.query.ColumnKind.TIMESTAMP;
import static dev.cairn.storage.query.ColumnKind.UUID;

import java.util.List;
import java.util.Optional;

/**
 * A table a query may read: its stored columns, in the order {@code *} reads them, and the fields derived
 * from them, which the Java API names like columns (the JSON form does not know them; see
 * {@link SpecValidator#inJsonForm}).
 */
record Table(String sqlName, List<Column> columns, List<Column> derived) {

    /** The call links by which a process was called: a process has at most one caller. */
    private static final String CALL_LINK = "l.output_id = {t}.id AND l.type IN ('call_calc', 'call_work')";

    Table(String sqlName, List<Column> columns) {
        this(sqlName, columns, List.of());
    }

    static final Table NODE = new Table(
            "node",
            List.of(
                    Column.of("id", LONG),
                    Column.of("uuid", UUID),
                    Column.of("node_type", TEXT),
                    Column.of("process_type", TEXT),
                    Column.of("label", TEXT),
                    Column.of("description", TEXT),
                    Column.of("ctime", TIMESTAMP),
                    Column.of("mtime", TIMESTAMP),
                    Column.of("user_id", LONG),
                    Column.of("computer_id", LONG),
                    Column.of("attributes", JSON),
                    Column.of("extras", JSON),
                    Column.of("repository_metadata", JSON),
                    Column.of("hash", TEXT)),
            List.of(
                    // the expression of the partial index of live processes (V14), so the planner can use it
                    Column.derived("process_state", TEXT, "{t}.attributes ->> 'process_state'"),
                    Column.derived("caller_id", LONG, "SELECT l.input_id FROM link l WHERE " + CALL_LINK),
                    Column.derived(
                            "caller_uuid",
                            UUID,
                            "SELECT c.uuid FROM link l JOIN node c ON c.id = l.input_id WHERE " + CALL_LINK),
                    Column.derived(
                            "computer_label", TEXT, "SELECT c.label FROM computer c WHERE c.id = {t}.computer_id")));
    static final Table GROUP = new Table(
            "node_group",
            List.of(
                    Column.of("id", LONG),
                    Column.of("uuid", UUID),
                    Column.of("label", TEXT),
                    Column.of("type_string", TEXT),
                    Column.of("description", TEXT),
                    Column.of("time", TIMESTAMP),
                    Column.of("user_id", LONG),
                    Column.of("extras", JSON)));
    static final Table COMPUTER = new Table(
            "computer",
            List.of(
                    Column.of("id", LONG),
                    Column.of("uuid", UUID),
                    Column.of("label", TEXT),
                    Column.of("hostname", TEXT),
                    Column.of("description", TEXT),
                    Column.of("transport_type", TEXT),
                    Column.of("scheduler_type", TEXT),
                    Column.of("metadata", JSON)));
    static final Table USER = new Table(
            "app_user",
            List.of(
                    Column.of("id", LONG),
                    Column.of("email", TEXT),
                    Column.of("first_name", TEXT),
                    Column.of("last_name", TEXT),
                    Column.of("institution", TEXT)));
    static final Table COMMENT = new Table(
            "comment",
            List.of(
                    Column.of("id", LONG),
                    Column.of("uuid", UUID),
                    Column.of("node_id", LONG),
                    Column.of("user_id", LONG),
                    Column.of("ctime", TIMESTAMP),
                    Column.of("mtime", TIMESTAMP),
                    Column.of("content", TEXT)));
    static final Table LOG = new Table(
            "log",
            List.of(
                    Column.of("id", LONG),
                    Column.of("uuid", UUID),
                    Column.of("time", TIMESTAMP),
                    Column.of("logger_name", TEXT),
                    Column.of("level_name", TEXT),
                    Column.of("node_id", LONG),
                    Column.of("message", TEXT),
                    Column.of("metadata", JSON)));
    /** The edges between nodes. */
    static final Table LINK = new Table(
            "link",
            List.of(
                    Column.of("id", LONG),
                    Column.of("input_id", LONG),
                    Column.of("output_id", LONG),
                    Column.of("type", TEXT),
                    Column.of("label", TEXT)));

    /** The stored column or (outside the JSON form) derived field of this name. */
    Optional<Column> column(String name) {
        Optional<Column> stored =
                columns.stream().filter(c -> c.name().equals(name)).findFirst();
        if (stored.isPresent() || SpecValidator.isJsonForm()) {
            return stored;
        }
        return derived.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }
}
