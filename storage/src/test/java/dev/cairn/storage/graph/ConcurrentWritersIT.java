package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.testing.TestDatabase;

/** Two JVMs store linked nodes at once, racing for the same labels; every rule holds afterwards. */
class ConcurrentWritersIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int CALCS = 200;
    private static final int BATCHES = 40;

    @Test
    void racingWritersKeepEveryRuleAndEveryBatchWholeOrAbsent() throws Exception {
        long user;
        long firstCalc;
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            user = GraphFixtures.user(database, "race@example.com");
            GraphStore graph = new GraphStore(database, null, user);
            List<Node> calcs = new ArrayList<>();
            for (int i = 0; i < CALCS; i++) {
                calcs.add(new CalcFunctionNode("cairn.shared"));
            }
            graph.storeAll(calcs);
            firstCalc = calcs.getFirst().id();
            assertEquals(firstCalc + CALCS - 1, calcs.getLast().id(), "ids are reserved in one run");
        }

        List<Process> writers = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            writers.add(start(db.jdbcUrl(), user, name, firstCalc));
        }
        int stored = 0, refused = 0, batchesStored = 0, batchesRefused = 0;
        for (Process p : writers) {
            String line;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                line = out.readLine();
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("a writer did not finish");
            }
            assertEquals(0, p.exitValue(), "writer exit code");
            String[] f = line.split(" ");
            stored += Integer.parseInt(f[1]);
            refused += Integer.parseInt(f[3]);
            batchesStored += Integer.parseInt(f[5]);
            batchesRefused += Integer.parseInt(f[7]);
        }

        assertEquals(CALCS, stored, "each shared calculation got exactly one 'out'");
        assertEquals(CALCS, refused);
        assertEquals(2 * BATCHES, batchesStored + batchesRefused);
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            assertEquals(
                    0,
                    count(
                            database,
                            "SELECT count(*) FROM (SELECT input_id, label FROM link WHERE type = 'create' "
                                    + "GROUP BY input_id, label HAVING count(*) > 1) d"),
                    "duplicate CREATE labels");
            assertEquals(
                    0,
                    count(
                            database,
                            "SELECT count(*) FROM (SELECT output_id FROM link WHERE type = 'create' "
                                    + "GROUP BY output_id HAVING count(*) > 1) d"),
                    "data with two creators");
            assertEquals(CALCS, count(database, "SELECT count(*) FROM link WHERE type = 'create' AND label = 'out'"));
            // every batch is whole (49 data nodes) or absent
            assertEquals(
                    0,
                    count(
                            database,
                            "SELECT count(*) FROM (SELECT label FROM node WHERE label LIKE '%-batch-%' "
                                    + "GROUP BY label HAVING count(*) <> 49) d"),
                    "a partly stored batch");
            assertEquals(
                    batchesStored,
                    count(database, "SELECT count(DISTINCT label) FROM node WHERE label LIKE '%-batch-%'"));
            // and no node of a refused batch stayed behind, not even its calculation
            assertEquals(
                    CALCS + batchesStored,
                    count(database, "SELECT count(*) FROM node WHERE node_type LIKE 'process.%'"));
        }
    }

    private static Process start(String url, long user, String name, long firstCalc) throws Exception {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        cp,
                        GraphWriterDriver.class.getName(),
                        url,
                        Long.toString(user),
                        name,
                        Long.toString(firstCalc),
                        Integer.toString(CALCS),
                        Integer.toString(BATCHES))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static long count(Database database, String sql) throws Exception {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
