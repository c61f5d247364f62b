package dev.cairn.jmh.graph;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.Databases;
import dev.cairn.storage.db.JsonCodec;

/**
 * What the graph and engine benchmarks share: a database of their own on a server
 * (created afresh, dropped at the end), and structure-like attributes drawn like the
 * comparison's workload.
 */
public final class GraphBench {

    private GraphBench() {}

    /** The server the benchmarks use: {@code CAIRN_TEST_DB_URL}, a URL of a user that may create databases. */
    public static String adminUrl() {
        String admin = System.getenv("CAIRN_TEST_DB_URL");
        if (admin == null) {
            throw new IllegalStateException("set CAIRN_TEST_DB_URL to a PostgreSQL admin URL (source .ci/services)");
        }
        return admin;
    }

    /** A fresh database named {@code name} on the benchmarks' server; returns its JDBC URL. */
    static String freshDatabase(String name) throws Exception {
        return freshDatabase(adminUrl(), name);
    }

    /** A fresh database named {@code name} (dropped first if it exists) on {@code admin}'s server; returns its URL. */
    public static String freshDatabase(String admin, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(admin);
                Statement s = c.createStatement()) {
            Databases.drop(c, name);
            s.execute("CREATE DATABASE " + name);
        }
        return admin.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    public static void dropDatabase(String name) throws Exception {
        try (Connection c = DriverManager.getConnection(adminUrl())) {
            Databases.drop(c, name);
        }
    }

    static Database open(String url) {
        return Database.open(DatabaseConfig.of(url).withPoolSize(2));
    }

    static long user(Database database) throws Exception {
        try (Connection c = database.connection()) {
            return GraphData.user(c);
        }
    }

    /** Structure attributes as {@link GraphData} writes them for COPY, read back as maps. */
    static List<Map<String, Object>> structures(int count, long seed) {
        Random random = new Random(seed);
        List<Map<String, Object>> all = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            all.add(JsonCodec.readObject(GraphData.structure(random)));
        }
        return all;
    }
}
