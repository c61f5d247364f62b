package dev.cairn.storage.query;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGStatement;
import org.postgresql.copy.CopyOut;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;

/**
 * A compiled query ready to run against the graph's database.
 * {@snippet :
 * GraphQuery query = GraphQuery.on(database, QueryBuilder.start()
 *     .node("s", v -> v.type("data.core.structure.StructureData.").project("id", "attributes.cell"))
 *     .build());
 * try (Stream<Row> rows = query.stream()) {
 *     rows.forEach(row -> use(row.get("s", "attributes.cell")));
 * }
 * }
 * Each call takes a connection from the data source and gives it back before returning, except
 * {@link #stream()} and {@link #cursor()}, whose result holds it until closed. Every value of the
 * query is bound as a parameter, but for {@link #stream()}'s COPY, which takes none: there the
 * driver quotes each as a literal ({@link InlinedSql}).
 */
public final class GraphQuery {

    /** Rows a cursor fetches per round trip at most when they hold JSON values (several KiB each): fewer when large. */
    public static final int JSON_FETCH_SIZE = 1_000;
    /** Rows a cursor fetches per round trip at most otherwise (a few numbers or strings each). */
    public static final int NARROW_FETCH_SIZE = 10_000;

    private final DataSource dataSource;
    private final QuerySpec spec;
    private final SqlCompiler.Plan plan;
    private final int fetchSize;
    private final Executor decoder;
    private final boolean jsonAsText;

    private GraphQuery(DataSource dataSource, QuerySpec spec, int fetchSize, Executor decoder, boolean jsonAsText) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.plan = SqlCompiler.plan(spec, jsonAsText);
        this.fetchSize = fetchSize;
        this.decoder = decoder;
        this.jsonAsText = jsonAsText;
    }

    /** The query {@code spec}, checked, ready to run on connections of {@code dataSource}. */
    public static GraphQuery on(DataSource dataSource, QuerySpec spec) {
        return new GraphQuery(dataSource, spec, 0, ForkJoinPool.commonPool(), false);
    }

    /** The query {@code spec}, checked, ready to run on {@code database}. */
    public static GraphQuery on(Database database, QuerySpec spec) {
        return on(database.dataSource(), spec);
    }

    /**
     * The same query with its cursors fetching at most {@code rows} rows per round trip (by default
     * {@link #JSON_FETCH_SIZE} or {@link #NARROW_FETCH_SIZE}, by what the rows hold), fewer where
     * the rows are large ({@link CursorCells}): the cursors of {@link #parallelStream}, of
     * {@link #all()} when its rows hold JSON, and of {@link #stream()} when it reads through a
     * cursor rather than a COPY, which has no fetch size.
     */
    public GraphQuery withFetchSize(int rows) {
        if (rows < 1) {
            throw new InvalidInputException("fetch size must be at least 1, was " + rows);
        }
        return new GraphQuery(dataSource, spec, rows, decoder, jsonAsText);
    }

    /**
     * The same query with its JSON projections left as the database's text ({@link UndecodedJson}),
     * not decoded into maps and lists, and strings as their characters ({@link UndecodedString}),
     * which the database sends unescaped: for a writer that sends them on as JSON. Whole rows
     * ({@code *}) are decoded as ever.
     */
    public GraphQuery withJsonAsText() {
        return new GraphQuery(dataSource, spec, fetchSize, decoder, true);
    }

    /** The query's specification. */
    public QuerySpec spec() {
        return spec;
    }

    /** The SQL and parameters this query runs, e.g. for EXPLAIN elsewhere. */
    public CompiledQuery sql() {
        return plan.query();
    }

    /** A cursor over the rows; close it. Others read them through {@link #stream()}. */
    ResultStream cursor() {
        return open(plan, true);
    }

    /**
     * The rows as a stream; close it (try-with-resources) to give the connection back. They come from
     * {@code COPY (…) TO STDOUT (FORMAT binary)} with the query's values written in, which PostgreSQL
     * and the driver read at less cost than a cursor, or, where a column is one the COPY does not
     * read (an aggregate's {@code numeric}), through a cursor. Rows that hold JSON (large ones) are
     * read ahead on a thread of their own.
     */
    public Stream<Row> stream() {
        RowReader reader = new RowReader(plan.outputs(), jsonAsText);
        ValueReader[] columns = reader.copyColumns();
        ResultStream read = columns == null ? cursor() : copy(reader, columns);
        if (!read.holdsJson()) {
            return ordered(read, read::close);
        }
        ParallelRows rows = ParallelRows.readAhead(read);
        return ordered(rows, rows::close);
    }

    private static Stream<Row> ordered(Iterator<Row> rows, Runnable close) {
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(rows, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(close);
    }

    /**
     * The rows as {@code ways} cursors on as many connections read them at once, for large
     * results of JSON: each cursor takes a share of the first vertex's id range, and all read
     * one snapshot, so together they return exactly the rows of {@link #stream()} as of one
     * moment, in no particular order. PostgreSQL runs no parallel workers for a cursor; this
     * puts several server processes to work on turning JSON into text. Queries that order,
     * page, aggregate or start from something other than nodes run as {@link #stream()}.
     */
    public Stream<Row> parallelStream(int ways) {
        if (ways < 2 || !splittable()) {
            return stream();
        }
        List<ResultStream> parts = new ArrayList<>(ways);
        long[] bounds = firstVertexIdBounds();
        try (SnapshotSplit split = SnapshotSplit.open(dataSource.getConnection(), bounds[0], bounds[1])) {
            for (long[] range : split.ranges(ways)) {
                QuerySpec part = withFirstVertexFilter(Filter.and(
                        Filter.field("id").ge(range[0]), Filter.field("id").lt(range[1])));
                SqlCompiler.Plan partPlan = SqlCompiler.plan(part, jsonAsText);
                Connection c = dataSource.getConnection();
                try {
                    split.join(c);
                } catch (SQLException e) {
                    closeQuietly(c, null);
                    throw e;
                }
                parts.add(openOn(c, partPlan));
            }
        } catch (SQLException | RuntimeException e) {
            parts.forEach(ResultStream::close);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw failed(plan.query(), (SQLException) e);
        }
        ParallelRows rows = new ParallelRows(parts);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(rows, Spliterator.NONNULL), false)
                .onClose(rows::close);
    }

    /** Where the first vertex's ids lie, from its own filters alone (joins only narrow it). */
    private long[] firstVertexIdBounds() {
        Vertex v = spec.path().getFirst();
        Vertex alone = new Vertex(
                v.tag(),
                v.entity(),
                v.nodeType(),
                v.subclassing(),
                null,
                v.filter(),
                List.of(Projection.aggregate(Aggregate.MIN, "id"), Projection.aggregate(Aggregate.MAX, "id")),
                null,
                List.of());
        Row row = new GraphQuery(
                        dataSource, new QuerySpec(List.of(alone), List.of(), null, null, false, null), 0, null, false)
                .all()
                .getFirst();
        return row.get(0) == null
                ? new long[] {0, -1}
                : new long[] {((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue()};
    }

    private boolean splittable() {
        Vertex first = spec.path().getFirst();
        return first.entity() == EntityType.NODE
                && spec.orderBy().isEmpty()
                && spec.limit() == null
                && spec.offset() == null
                && !spec.distinct()
                && spec.after() == null
                && spec.path().stream().flatMap(v -> v.projections().stream()).allMatch(p -> p.aggregate() == null);
    }

    private QuerySpec withFirstVertexFilter(Filter extra) {
        Vertex v = spec.path().getFirst();
        Vertex narrowed = new Vertex(
                v.tag(),
                v.entity(),
                v.nodeType(),
                v.subclassing(),
                v.join(),
                v.filter() == null ? extra : Filter.and(v.filter(), extra),
                v.projections(),
                v.edgeFilter(),
                v.edgeProjections());
        List<Vertex> path = new ArrayList<>(spec.path());
        path.set(0, narrowed);
        return new QuerySpec(path, spec.orderBy(), spec.limit(), spec.offset(), spec.distinct(), spec.after());
    }

    /** A cursor over {@code plan} on a connection the caller has set up (and in a transaction). */
    private ResultStream openOn(Connection c, SqlCompiler.Plan plan) {
        PreparedStatement s = null;
        try {
            s = prepare(c, plan.query(), plan.needsCustomPlan());
            RowReader reader = new RowReader(plan.outputs(), jsonAsText);
            return new ResultStream(c, CursorCells.fetched(s, reader, largestFetch(reader)), reader, decoder);
        } catch (SQLException e) {
            closeQuietly(c, s);
            throw failed(plan.query(), e);
        }
    }

    /**
     * All rows. Narrow rows are read in one round trip; rows with JSON values through the cursor,
     * so that decoding overlaps with fetching. Use {@link #stream()} for results that should not be
     * in memory at once.
     */
    public List<Row> all() {
        return readAll(plan);
    }

    private List<Row> readAll(SqlCompiler.Plan plan) {
        List<Row> rows = new ArrayList<>();
        try (ResultStream cursor = open(plan, new RowReader(plan.outputs(), jsonAsText).decodesJson())) {
            cursor.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** The first row, fetched with {@code LIMIT 1}. */
    public Optional<Row> first() {
        List<Row> rows = limited(1);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    /**
     * The only row.
     *
     * @throws NotFoundException when the query returns none
     * @throws ConflictException when it returns more than one
     */
    public Row one() {
        List<Row> rows = limited(2);
        if (rows.isEmpty()) {
            throw new NotFoundException("expected exactly one row, the query returned none");
        }
        if (rows.size() > 1) {
            throw new ConflictException("expected exactly one row, the query returned more than one");
        }
        return rows.getFirst();
    }

    private List<Row> limited(long n) {
        long limit = spec.limit() == null ? n : Math.min(spec.limit(), n);
        QuerySpec limited =
                new QuerySpec(spec.path(), spec.orderBy(), limit, spec.offset(), spec.distinct(), spec.after());
        return readAll(SqlCompiler.plan(limited, jsonAsText));
    }

    /** The number of rows, counted in the database. */
    public long count() {
        CompiledQuery count = SqlCompiler.compileCount(spec);
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = prepare(c, count, plan.needsCustomPlan());
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failed(count, e);
        }
    }

    /** PostgreSQL's plan for the query, one line per plan node. */
    public String explain() {
        return explain(false);
    }

    /** The plan; with {@code analyze} the query runs and the plan shows times and row counts. */
    public String explain(boolean analyze) {
        CompiledQuery query = plan.query();
        CompiledQuery explain = new CompiledQuery(
                (analyze ? "EXPLAIN (ANALYZE, BUFFERS) " : "EXPLAIN ") + query.sql(), query.parameters());
        StringBuilder out = new StringBuilder();
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = prepare(c, explain, true);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
        } catch (SQLException e) {
            throw failed(explain, e);
        }
        return out.toString();
    }

    /** The most rows a cursor's fetch takes: the caller's fetch size, or the default for what the rows hold. */
    private int largestFetch(RowReader reader) {
        return fetchSize > 0 ? fetchSize : reader.holdsJson() ? JSON_FETCH_SIZE : NARROW_FETCH_SIZE;
    }

    private ResultStream open(SqlCompiler.Plan plan, boolean cursor) {
        Connection c = null;
        PreparedStatement s = null;
        try {
            c = dataSource.getConnection();
            // a cursor needs a transaction: with autocommit the driver reads every row at once
            if (cursor) {
                c.setAutoCommit(false);
            }
            s = prepare(c, plan.query(), plan.needsCustomPlan());
            RowReader reader = new RowReader(plan.outputs(), jsonAsText);
            CellSource cells = cursor
                    ? CursorCells.fetched(s, reader, largestFetch(reader))
                    : new CursorCells(s, s.executeQuery(), reader);
            return new ResultStream(c, cells, reader, decoder);
        } catch (SQLException e) {
            closeQuietly(c, s);
            throw failed(plan.query(), e);
        }
    }

    /** The rows through a COPY of the query, its columns read by {@code columns} ({@link RowReader#copyColumns}). */
    private ResultStream copy(RowReader reader, ValueReader[] columns) {
        Connection c = null;
        try {
            c = dataSource.getConnection();
            PGConnection pg = c.unwrap(PGConnection.class);
            String statement = CopyCells.statement(InlinedSql.of(plan.query(), pg), columns);
            CopyOut copy = pg.getCopyAPI().copyOut(statement);
            return new ResultStream(c, new CopyCells(pg, copy, columns), reader, decoder);
        } catch (SQLException e) {
            closeQuietly(c, null);
            throw failed(plan.query(), e);
        }
    }

    private static PreparedStatement prepare(Connection c, CompiledQuery query, boolean customPlan)
            throws SQLException {
        PreparedStatement s = c.prepareStatement(query.sql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        // Plan with the values every time where indexes need them: expression indexes on JSON
        // paths match only once $1 is 'sites', and LIKE uses an index only with a known prefix.
        // Other queries become server-side prepared statements after a few runs.
        if (customPlan) {
            s.unwrap(PGStatement.class).setPrepareThreshold(0);
        }
        List<Object> parameters = query.parameters();
        for (int i = 0; i < parameters.size(); i++) {
            Object p = parameters.get(i);
            if (p instanceof CompiledQuery.ArrayParameter a) {
                Array array = c.createArrayOf(
                        a.elementType(),
                        a.elements().stream()
                                .map(e -> e instanceof Temporal ? e.toString() : e)
                                .toArray());
                s.setArray(i + 1, array);
            } else {
                s.setObject(i + 1, p);
            }
        }
        return s;
    }

    /**
     * A value the database could not take as the query used it (class 22: a text compared as a
     * number, a bad cast) is the query's fault; anything else is the database's.
     */
    private static RuntimeException failed(CompiledQuery query, SQLException e) {
        Optional<InvalidQueryException> refused = InvalidQueryException.refusedValue(e);
        if (refused.isPresent()) {
            return refused.get();
        }
        return new QueryFailedException(
                "the query failed in the database: " + e.getMessage() + "\nSQL: " + query.sql(), e);
    }

    private static void closeQuietly(Connection c, PreparedStatement s) {
        try {
            if (s != null) {
                s.close();
            }
        } catch (SQLException ignored) {
            // the query failed already; that is the error to report
        }
        try {
            if (c != null) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                c.close();
            }
        } catch (SQLException ignored) {
            // as above
        }
    }
}
