package dev.cairn.jmh.graph;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * Cairn's side of the query phases of the graph comparison with aiida-core: loads 100,000
 * structure-like nodes and 500 provenance trees (B=4, D=4) into a database of its own once,
 * then prints {@code phase seconds rows} per phase, the best of 3 runs after one warm-up.
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.cairn.jmh.graph.QueryTimings [--reload] [--explain]
 * </pre>
 * The server comes from {@code CAIRN_TEST_DB_URL} (a URL to any database on it, with a user
 * that may create databases); the data goes into database {@code cairn_query_bench}.
 */
public final class QueryTimings {

    static final String DATABASE = "cairn_query_bench";
    static final int STRUCTURES = 100_000;
    static final int TREES = 500;

    private QueryTimings() {
    }

    public static void main(String[] args) throws Exception {
        boolean reload = List.of(args).contains("--reload");
        boolean explain = List.of(args).contains("--explain");
        String url = benchUrl(reload);
        try (Database db = Database.open(DatabaseConfig.of(url).withPoolSize(4))) {
            List<Long> roots = load(db);
            List<Long> chosen = new ArrayList<>(roots);
            Collections.shuffle(chosen, new Random(7));
            List<Long> fifty = chosen.subList(0, 50);
            Map<String, QuerySpec> specs = Specs.all(fifty);
            for (var e : specs.entrySet()) {
                GraphQuery q = GraphQuery.on(db, e.getValue());
                if (explain)
                    System.out.println(e.getKey() + ":\n" + q.explain(true));
                Callable<Long> run = switch (e.getKey()) {
                    case "count_longer" -> q::count;
                    case "project_all" -> () -> consume(q);
                    default -> () -> (long) q.all().size();
                };
                time(e.getKey(), run);
            }
            time("descendants_each", () -> {
                long rows = 0;
                for (long root : fifty)
                    rows += GraphQuery.on(db, Specs.descendants(List.of(root))).all().size();
                return rows;
            });
        }
    }

    /** Streams every row and touches each decoded value, as a caller would. */
    static long consume(GraphQuery q) {
        long size = 0;
        try (Stream<Row> rows = q.stream()) {
            for (Row row : (Iterable<Row>) rows::iterator)
                for (Object v : row.values())
                    size += v instanceof List<?> l ? l.size() : 1;
        }
        return size;
    }

    private static void time(String phase, Callable<Long> run) throws Exception {
        long result = run.call();
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t = System.nanoTime();
            long r = run.call();
            best = Math.min(best, (System.nanoTime() - t) / 1e9);
            if (r != result)
                throw new IllegalStateException(phase + " returned " + r + " then " + result);
        }
        System.out.printf("%-18s %8.4f s  %d%n", phase, best, result);
    }

    static String benchUrl(boolean recreate) throws Exception {
        String admin = System.getenv("CAIRN_TEST_DB_URL");
        if (admin == null)
            throw new IllegalStateException("set CAIRN_TEST_DB_URL to a PostgreSQL server (jdbc:postgresql://host/db?user=..&password=..)");
        try (Connection c = DriverManager.getConnection(admin); Statement s = c.createStatement()) {
            if (recreate)
                s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (!rs.next())
                    s.execute("CREATE DATABASE " + DATABASE);
            }
        }
        return admin.replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + DATABASE);
    }

    /** Loads the data unless it is there; returns the tree roots. */
    static List<Long> load(Database db) throws Exception {
        try (Connection c = db.connection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM node")) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    double copy = GraphData.structures(c, STRUCTURES, 42);
                    System.out.printf("store_bulk (COPY) %8.3f s  %.0f nodes/s%n", copy, STRUCTURES / copy);
                    long t = System.nanoTime();
                    GraphData.trees(c, TREES, 4, 4);
                    System.out.printf("trees             %8.3f s%n", (System.nanoTime() - t) / 1e9);
                    s.execute("VACUUM ANALYZE");
                }
            }
            List<Long> roots = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT n.id FROM node n WHERE n.node_type = 'data.core.int.Int.'"
                + " AND NOT EXISTS (SELECT 1 FROM link l WHERE l.output_id = n.id) ORDER BY n.id")) {
                while (rs.next())
                    roots.add(rs.getLong(1));
            }
            return roots;
        }
    }
}
