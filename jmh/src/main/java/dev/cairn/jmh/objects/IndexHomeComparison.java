package dev.cairn.jmh.objects;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectMeta;

/**
 * Where a container in a bucket keeps its index, measured: the look-ups a read makes (which pack, where,
 * how long) in the store's own copy of the index (SQLite on the host, read into memory; a container in
 * a bucket uses the same copy, brought up to date from the bucket's log) against the same rows in a
 * PostgreSQL table, one query per key as a single read would make and one query for all keys as a bulk
 * read would. Best of five rounds each, in one run:
 *
 * <pre>{@code
 * java -cp jmh/target/benchmarks.jar dev.cairn.jmh.objects.IndexHomeComparison JDBC_URL [OBJECTS]
 * }</pre>
 *
 * The database is only given a temporary table, dropped with the session.
 */
public final class IndexHomeComparison {

    private static final int ROUNDS = 5;

    private IndexHomeComparison() {}

    @FunctionalInterface
    private interface Round {
        void run() throws Exception;
    }

    private static double best(Round round) throws Exception {
        round.run(); // warm-up
        double best = Double.MAX_VALUE;
        for (int i = 0; i < ROUNDS; i++) {
            long t = System.nanoTime();
            round.run();
            best = Math.min(best, (System.nanoTime() - t) / 1e9);
        }
        return best;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: IndexHomeComparison JDBC_URL [OBJECTS]");
            System.exit(2);
        }
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        Path dir = BenchmarkDirs.newDir("index-home");
        try (Container c = Container.init(dir.resolve("c"), ContainerConfig.bucketDefaults());
                Connection db = DriverManager.getConnection(args[0])) {
            Random r = new Random(42);
            List<byte[]> contents = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[r.nextInt(1001)];
                r.nextBytes(b);
                contents.add(b);
            }
            // distinct: two empty objects share a key
            List<ObjectKey> keys = c.putAllToPacks(contents, Compression.NONE).stream()
                    .distinct()
                    .toList();
            Map<ObjectKey, ObjectMeta> metas = c.metas(keys);
            fill(db, metas);

            double localSingle = best(() -> {
                for (ObjectKey k : keys) {
                    c.meta(k);
                }
            });
            double pgSingle;
            try (PreparedStatement one =
                    db.prepareStatement("SELECT pack, pos, length, size FROM cairn_index_home WHERE key = ?")) {
                pgSingle = best(() -> {
                    for (ObjectKey k : keys) {
                        one.setBytes(1, HexFormat.of().parseHex(k.hex()));
                        try (ResultSet rs = one.executeQuery()) {
                            if (!rs.next()) {
                                throw new IllegalStateException("no row for " + k);
                            }
                        }
                    }
                });
            }
            double localBulk = best(() -> c.metas(keys));
            double pgBulk;
            try (PreparedStatement all = db.prepareStatement(
                    "SELECT key, pack, pos, length, size FROM cairn_index_home WHERE key = ANY(?)")) {
                byte[][] raw =
                        keys.stream().map(k -> HexFormat.of().parseHex(k.hex())).toArray(byte[][]::new);
                Array array = db.createArrayOf("bytea", raw);
                pgBulk = best(() -> {
                    all.setArray(1, array);
                    int rows = 0;
                    try (ResultSet rs = all.executeQuery()) {
                        while (rs.next()) {
                            rows++;
                        }
                    }
                    if (rows != keys.size()) {
                        throw new IllegalStateException(rows + " rows for " + keys.size() + " keys");
                    }
                });
            }
            System.out.println("lookup keys store_index_seconds postgresql_seconds postgresql_over_store"
                    + " store_us_per_key postgresql_us_per_key");
            line("one_per_read", keys.size(), localSingle, pgSingle);
            line("all_in_one", keys.size(), localBulk, pgBulk);
        } finally {
            BenchmarkDirs.delete(dir);
        }
    }

    private static void line(String name, int n, double local, double pg) {
        System.out.printf(
                "%s %d %.4f %.4f %.1f %.2f %.2f%n", name, n, local, pg, pg / local, local / n * 1e6, pg / n * 1e6);
    }

    private static void fill(Connection db, Map<ObjectKey, ObjectMeta> metas) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE cairn_index_home (key bytea PRIMARY KEY, pack int NOT NULL,"
                    + " pos bigint NOT NULL, length bigint NOT NULL, size bigint NOT NULL)");
        }
        try (PreparedStatement p = db.prepareStatement("INSERT INTO cairn_index_home VALUES (?, ?, ?, ?, ?)")) {
            for (ObjectMeta m : metas.values()) {
                p.setBytes(1, HexFormat.of().parseHex(m.key().hex()));
                p.setInt(2, m.pack());
                p.setLong(3, m.offset());
                p.setLong(4, m.length());
                p.setLong(5, m.size());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (Statement s = db.createStatement()) {
            s.execute("ANALYZE cairn_index_home");
        }
    }
}
