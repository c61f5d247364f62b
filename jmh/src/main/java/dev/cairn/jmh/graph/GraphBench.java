package dev.cairn.jmh.graph;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;

/**
 * What the graph benchmarks share: a database of their own on the server
 * {@code CAIRN_TEST_DB_URL} names (created afresh, dropped at the end), and
 * structure-like attributes drawn like the comparison's workload.
 */
final class GraphBench {

    private GraphBench() {
    }

    /** A fresh database named {@code name}; returns its JDBC URL. */
    static String freshDatabase(String name) throws Exception {
        String admin = System.getenv("CAIRN_TEST_DB_URL");
        if (admin == null)
            throw new IllegalStateException("set CAIRN_TEST_DB_URL to a PostgreSQL admin URL (source .ci/services)");
        try (Connection c = java.sql.DriverManager.getConnection(admin); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        }
        return admin.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    static void dropDatabase(String name) throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection(System.getenv("CAIRN_TEST_DB_URL"));
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    static Database open(String url) {
        return Database.open(DatabaseConfig.of(url).withPoolSize(2));
    }

    static long user(Database database) throws Exception {
        try (Connection c = database.connection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("INSERT INTO app_user (email) VALUES ('bench@cairn.dev') "
                 + "ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING id")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Structure attributes: cell 3×3, pbc, 2–3 kinds, 8–64 sites, floats of 14 digits. */
    static List<Map<String, Object>> structures(int count, long seed) {
        String[] elements = {"Ba", "Ti", "O", "Si", "Sr", "Ca"};
        double[] masses = {137.327, 47.867, 15.999, 28.085, 87.62, 40.078};
        SplittableRandom random = new SplittableRandom(seed);
        List<Map<String, Object>> all = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            int kinds = 2 + random.nextInt(2);
            List<Object> kindList = new ArrayList<>();
            for (int k = 0; k < kinds; k++) {
                int e = (n + k) % elements.length;
                kindList.add(Map.of("name", elements[e], "symbols", List.of(elements[e]), "weights", List.of(1.0),
                    "mass", masses[e]));
            }
            double a = round(random.nextDouble(3, 12));
            List<Object> cell = List.of(List.of(a, 0.0, 0.0), List.of(round(random.nextDouble(-0.5, 0.5)), a, 0.0),
                List.of(round(random.nextDouble(-0.5, 0.5)), round(random.nextDouble(-0.5, 0.5)), a));
            int sites = 8 + random.nextInt(57);
            List<Object> siteList = new ArrayList<>(sites);
            for (int s = 0; s < sites; s++)
                siteList.add(Map.of("kind_name", elements[(n + s % kinds) % elements.length], "position",
                    List.of(round(random.nextDouble(a)), round(random.nextDouble(a)), round(random.nextDouble(a)))));
            all.add(Map.of("cell", cell, "pbc1", true, "pbc2", true, "pbc3", true, "kinds", kindList, "sites", siteList));
        }
        return all;
    }

    private static double round(double d) {
        return new java.math.BigDecimal(d).round(new java.math.MathContext(14)).doubleValue();
    }
}
