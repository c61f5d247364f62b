package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Rows read ahead of their reader, and the rows of a cursor's fetch, are bounded by their bytes as well as their
 * number: rows of large documents come in short batches and short fetches, so what a query holds in memory is a
 * few megabytes however large its documents, and short batches end no read early.
 */
class ReadAheadBoundIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int LARGE = 30;
    private static final int LOG_CHARS = 1 << 20;

    static Database database;

    @BeforeAll
    static void fill() throws Exception {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4));
        long user = GraphFixtures.user(database, "r@example.com");
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < LARGE; i++) {
            nodes.add(new DictData(Map.of("i", i, "log", log(i))));
        }
        new GraphStore(database, null, user).storeAll(nodes);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static String log(int i) {
        char[] text = new char[LOG_CHARS];
        Arrays.fill(text, (char) ('a' + i % 26));
        return new String(text);
    }

    @Test
    void aReaderThatTakesNoMoreHoldsAFewBatchesOfBytesNotOfRows() throws Exception {
        byte[] document = ("\"" + "x".repeat(64 * 1024 - 2) + "\"").getBytes(StandardCharsets.UTF_8);
        int rowsInAll = 5_000;
        AtomicInteger drawn = new AtomicInteger();
        CellSource source = new CellSource() {
            @Override
            public Object[] next() {
                return drawn.get() == rowsInAll ? null : new Object[] {document, (long) drawn.getAndIncrement()};
            }

            @Override
            public void close() {}
        };
        QuerySpec spec = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("attributes.log", "id"))
                .build();
        RowReader reader = new RowReader(SqlCompiler.plan(spec, true).outputs(), true);
        try (ParallelRows rows = ParallelRows.readAhead(
                new ResultStream(database.connection(), source, reader, ForkJoinPool.commonPool()))) {
            assertEquals(0L, rows.next().get(1));
            awaitReaderBlocked();
            // the caller's batch, two in the queue and one waiting to be put (four of the read-ahead's bound), and
            // the stream's own (one of its bound), each at most a row past it; 512-row batches drew 2,048 rows
            long held = (long) drawn.get() * document.length;
            long bound = 4 * ParallelRows.BATCH_BYTES + ResultStream.BATCH_BYTES + 5L * document.length;
            assertTrue(
                    held <= bound, () -> drawn.get() + " rows of 64 KiB read ahead: " + held + " bytes, over " + bound);
            long next = 1;
            while (rows.hasNext()) {
                assertEquals(next++, rows.next().get(1), "rows come in their order, none lost");
            }
            assertEquals(rowsInAll, next);
        }
    }

    /**
     * Waits until the read-ahead thread waits for room in its full queue (on the queue's condition, not for its
     * lock, which the caller's take holds a moment): it has read as far ahead as it will.
     */
    private static void awaitReaderBlocked() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            boolean blocked = Thread.getAllStackTraces().entrySet().stream()
                    .anyMatch(e -> e.getKey().getName().equals("cairn-query-part")
                            && e.getKey().getState() == Thread.State.WAITING
                            && calls(e.getValue(), "java.util.concurrent.ArrayBlockingQueue", "put")
                            && calls(
                                    e.getValue(),
                                    "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
                                    "await"));
            if (blocked) {
                return;
            }
            Thread.sleep(10); // a thread's state has no event to wait on
        }
        throw new AssertionError("the read-ahead thread never waited for room in its queue");
    }

    private static boolean calls(StackTraceElement[] stack, String type, String method) {
        return Arrays.stream(stack)
                .anyMatch(
                        f -> f.getClassName().equals(type) && f.getMethodName().equals(method));
    }

    @Test
    void aCursorFetchesAFewLargeRowsATimeAndManySmallOnes() {
        QuerySpec large = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("attributes.i", "attributes.log", "attributes"))
                .orderBy(Order.asc("d", "id"))
                .build();
        List<Integer> fetches = fetchesOf(
                () -> assertEquals(LARGE, GraphQuery.on(database, large).all().size()));
        // rows of two copies of a 1 MiB log: eight, then as many as FETCH_BYTES holds, where a fetch took 1,000
        long row = 2L * LOG_CHARS;
        assertEquals(CursorCells.FIRST_FETCH, fetches.getFirst(), () -> "fetches " + fetches);
        int bounded = (int) (CursorCells.FETCH_BYTES / row); // a row is a few bytes more than two logs: one less
        assertTrue(fetches.get(1) == bounded || fetches.get(1) == bounded - 1, () -> "fetches " + fetches);
        assertTrue(fetches.stream().allMatch(f -> f <= CursorCells.FIRST_FETCH), () -> "fetches " + fetches);

        QuerySpec small = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("attributes.i"))
                .build();
        List<Integer> smallFetches = fetchesOf(
                () -> assertEquals(LARGE, GraphQuery.on(database, small).all().size()));
        assertEquals(
                List.of(CursorCells.FIRST_FETCH, GraphQuery.JSON_FETCH_SIZE),
                smallFetches,
                "small rows, 1,000 a fetch");
    }

    /**
     * The row limits of the cursor fetches {@code read} makes on this thread, as the driver logs the messages it
     * sends ({@code Execute} of a portal).
     */
    private static List<Integer> fetchesOf(Runnable read) {
        Logger driver = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
        long thread = Thread.currentThread().threadId();
        List<Integer> limits = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                Object[] parameters = record.getParameters();
                if (record.getLongThreadID() == thread
                        && record.getMessage().contains("Execute(portal")
                        && parameters[0] != null
                        && parameters[0].toString().startsWith("C_")) {
                    limits.add((Integer) parameters[1]);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Level level = driver.getLevel();
        driver.setLevel(Level.FINEST);
        driver.addHandler(handler);
        try {
            read.run();
        } finally {
            driver.removeHandler(handler);
            driver.setLevel(level);
        }
        return limits;
    }

    @Test
    void documentsOfAMegabyteComeWholeAndInOrderByEveryWayOfReading() {
        QuerySpec spec = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("attributes.i", "attributes.log", "attributes"))
                .orderBy(Order.asc("d", "id"))
                .build();
        List<Long> order = LongStream.range(0, LARGE).boxed().toList();
        GraphQuery query = GraphQuery.on(database, spec);
        for (GraphQuery way : List.of(query, query.withJsonAsText(), query.withFetchSize(3))) {
            try (Stream<Row> rows = way.stream()) {
                assertEquals(order, rows.map(ReadAheadBoundIT::checked).toList());
            }
        }
        assertEquals(order, query.all().stream().map(ReadAheadBoundIT::checked).toList());
        try (Stream<Row> rows = query.parallelStream(2)) {
            assertEquals(order, rows.map(ReadAheadBoundIT::checked).sorted().toList());
        }
    }

    /** The row's {@code i}, once its log and whole attributes are checked to be that node's. */
    private static long checked(Row row) {
        long i = Long.parseLong(row.get(0).toString());
        String log = row.get(1) instanceof UndecodedString s
                ? s.toString()
                : row.get(1).toString();
        String expected = log((int) i);
        assertEquals(expected.length(), log.replace("\"", "").length(), "the log of node " + i);
        assertEquals(expected.charAt(0), log.replace("\"", "").charAt(0), "the log of node " + i);
        Object whole = row.get(2);
        String text = whole instanceof Map<?, ?> map ? (String) map.get("log") : whole.toString();
        assertTrue(text.contains(expected), "the attributes of node " + i);
        return i;
    }
}
