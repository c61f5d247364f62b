package dev.cairn.jmh.graph;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.query.CompiledQuery;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.Row;

/**
 * Graph queries on PostgreSQL ({@code CAIRN_TEST_DB_URL}): attribute projection of every
 * structure, a filtered count and a filtered projection on indexed attribute paths, and the
 * descendants of 50 roots in one query. Each has a baseline that runs the same compiled SQL
 * through plain JDBC and only touches the bytes, so the ratio is what the query builder adds
 * (decoding JSON into Java objects, rows, the cursor). The data, {@code structures} structure
 * nodes and {@code trees} trees of B=4, D=4, goes into a database of its own, dropped at the end.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
public class QueryBenchmark {

    private static final String DATABASE = "cairn_query_jmh";

    @State(Scope.Benchmark)
    public static class Graph {
        @Param("10000")
        int structures;

        @Param("50")
        int trees;

        String url;
        Database database;
        GraphQuery projectAll;
        GraphQuery countLonger;
        GraphQuery valueFilter;
        GraphQuery descendants;
        long expectedDescendants;

        @Setup(Level.Trial)
        public void load() throws Exception {
            url = GraphBench.freshDatabase(DATABASE);
            database = Database.open(DatabaseConfig.of(url).withPoolSize(2));
            List<Long> roots;
            try (Connection c = database.connection();
                    Statement s = c.createStatement()) {
                GraphData.structures(c, structures, 42);
                roots = GraphData.trees(c, trees, 4, 4);
                s.execute("VACUUM ANALYZE");
            }
            List<Long> fifty = roots.subList(0, Math.min(50, roots.size()));
            var specs = Specs.all(fifty);
            projectAll = GraphQuery.on(database, specs.get("project_all"));
            countLonger = GraphQuery.on(database, specs.get("count_longer"));
            valueFilter = GraphQuery.on(database, specs.get("value_filter"));
            descendants = GraphQuery.on(database, specs.get("descendants_50"));
            expectedDescendants = fifty.size() * 425L;
        }

        @TearDown(Level.Trial)
        public void drop() throws Exception {
            long rows = descendants.all().size();
            long projected = consume(projectAll);
            database.close();
            GraphBench.dropDatabase(DATABASE);
            if (rows != expectedDescendants) {
                throw new IllegalStateException("descendants: " + rows + " rows, expected " + expectedDescendants);
            }
            if (projected < 3L * structures) {
                throw new IllegalStateException("project_all decoded only " + projected + " values");
            }
        }
    }

    @Benchmark
    public long projectAttributes(Graph g) {
        return consume(g.projectAll);
    }

    @Benchmark
    public long baselineProjectAttributesRawJdbc(Graph g) throws SQLException {
        return rawBytes(g, g.projectAll.sql(), 1000);
    }

    @Benchmark
    public long countLongerThan32(Graph g) {
        return g.countLonger.count();
    }

    @Benchmark
    public long valueFilterIds(Graph g) {
        return g.valueFilter.all().size();
    }

    @Benchmark
    public long baselineValueFilterRawJdbc(Graph g) throws SQLException {
        return rawBytes(g, g.valueFilter.sql(), 0);
    }

    @Benchmark
    public long descendantsOf50Roots(Graph g) {
        return g.descendants.all().size();
    }

    @Benchmark
    public long baselineDescendantsRawJdbc(Graph g) throws SQLException {
        return rawBytes(g, g.descendants.sql(), 0);
    }

    /** Runs compiled SQL through plain JDBC and sums the sizes of the raw values. */
    private static long rawBytes(Graph g, CompiledQuery query, int fetchSize) throws SQLException {
        try (Connection c = g.database.connection()) {
            c.setAutoCommit(fetchSize == 0);
            long bytes = 0;
            try (PreparedStatement s = c.prepareStatement(query.sql())) {
                List<Object> parameters = query.parameters();
                for (int i = 0; i < parameters.size(); i++) {
                    if (parameters.get(i) instanceof CompiledQuery.ArrayParameter a) {
                        Array array =
                                c.createArrayOf(a.elementType(), a.elements().toArray());
                        s.setArray(i + 1, array);
                    } else {
                        s.setObject(i + 1, parameters.get(i));
                    }
                }
                s.setFetchSize(fetchSize);
                try (ResultSet rs = s.executeQuery()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int k = 1; k <= columns; k++) {
                            byte[] v = rs.getBytes(k);
                            bytes += v == null ? 0 : v.length;
                        }
                    }
                }
            } finally {
                if (fetchSize != 0) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            }
            return bytes;
        }
    }

    /** Reads every row as Java objects; returns the number of values touched. */
    static long consume(GraphQuery q) {
        long size = 0;
        try (Stream<Row> rows = q.stream()) {
            for (Row row : (Iterable<Row>) rows::iterator) {
                for (Object v : row.values()) {
                    size += v instanceof List<?> l ? l.size() : 1;
                }
            }
        }
        return size;
    }
}
