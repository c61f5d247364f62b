package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.testing.TestDatabase;

class LogStoreIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static LogStore logs;
    static GraphRows rows;
    static Connection connection;

    @BeforeAll
    static void open() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        logs = new LogStore(database);
        connection = database.connection();
        rows = new GraphRows(connection);
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
        database.close();
    }

    private static OffsetDateTime at(int second) {
        return OffsetDateTime.of(2024, 5, 1, 12, 0, second, 0, ZoneOffset.UTC);
    }

    @Test
    void recordsComeBackPerNodeInTimeOrderWithTheirLevels() throws SQLException {
        long calc = rows.calc(), other = rows.calc();
        logs.append(List.of(
                new LogEntry(calc, LogLevel.WARNING, "cairn.calc", "retrying", Map.of("attempt", 2L), at(30)),
                new LogEntry(calc, LogLevel.REPORT, "cairn.calc", "submitted job 1234", Map.of(), at(10)),
                new LogEntry(other, LogLevel.INFO, "cairn.calc", "elsewhere", Map.of(), at(20)),
                new LogEntry(calc, LogLevel.DEBUG, "cairn.calc", "polling", Map.of(), at(20))));
        List<LogRecord> all = logs.forNode(calc);
        assertEquals(
                List.of("submitted job 1234", "polling", "retrying"),
                all.stream().map(LogRecord::message).toList());
        assertEquals(
                List.of(LogLevel.REPORT, LogLevel.DEBUG, LogLevel.WARNING),
                all.stream().map(LogRecord::level).toList());
        assertEquals(Map.of("attempt", 2L), all.get(2).metadata());
        assertEquals(at(30).toInstant(), all.get(2).time().toInstant());
        assertEquals(calc, all.get(0).nodeId());
        // Levels are stored by name, as the column's readers expect.
        assertEquals(1, rows.count("SELECT count(*) FROM log WHERE node_id = " + calc + " AND level_name = 'REPORT'"));
    }

    @Test
    void aMinimumLevelFiltersLikeProcessReport() throws SQLException {
        long calc = rows.calc();
        logs.append(IntStream.range(0, LogLevel.values().length)
                .mapToObj(i ->
                        new LogEntry(calc, LogLevel.values()[i], "x", LogLevel.values()[i].name(), Map.of(), at(i)))
                .toList());
        assertEquals(
                List.of("REPORT", "WARNING", "ERROR", "CRITICAL"),
                logs.forNode(calc, LogLevel.REPORT).stream()
                        .map(LogRecord::message)
                        .toList());
        assertEquals(6, logs.forNode(calc).size());
    }

    @Test
    void aBatchOfThousandsIsAppendedAtOnce() throws SQLException {
        long calc = rows.calc();
        assertEquals(
                5_000,
                logs.append(IntStream.range(0, 5_000)
                        .mapToObj(i -> LogEntry.of(calc, LogLevel.REPORT, "bulk", "line " + i))
                        .toList()));
        List<LogRecord> records = logs.forNode(calc);
        assertEquals(5_000, records.size());
        assertEquals("line 4999", records.get(4_999).message());
    }

    @Test
    void aBatchNamingAMissingNodeAppendsNothing() throws SQLException {
        long calc = rows.calc();
        NotFoundException e = assertThrows(
                NotFoundException.class,
                () -> logs.append(List.of(
                        LogEntry.of(calc, LogLevel.INFO, "x", "fine"),
                        LogEntry.of(999999, LogLevel.INFO, "x", "lost"))));
        assertEquals("1 of the 2 nodes of the log entries do not exist: 999999", e.getMessage());
        assertEquals(0, logs.forNode(calc).size());
    }

    @Test
    void levelNamesAreParsedStrictly() {
        assertEquals(LogLevel.REPORT, LogLevel.of("REPORT"));
        assertEquals(23, LogLevel.REPORT.severity());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LogLevel.of("LOUD"));
        assertEquals(
                "unknown log level 'LOUD'; levels are [DEBUG, INFO, REPORT, WARNING, ERROR, CRITICAL]", e.getMessage());
    }
}
