package dev.cairn.storage.query;

import static dev.cairn.storage.query.ColumnKind.JSON;
import static dev.cairn.storage.query.ColumnKind.LONG;
import static dev.cairn.storage.query.ColumnKind.TEXT;
import static dev.cairn.storage.query.ColumnKind.TIMESTAMP;
import static dev.cairn.storage.query.ColumnKind.UUID;

import java.util.List;
import java.util.Optional;

/** A table a query may read and its columns, in the order {@code *} reads them. */
record Table(String sqlName, List<Column> columns) {

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
                    Column.of("hash", TEXT)));
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

    Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }
}
