package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.testing.TcpProxy;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A worker started with a bad setting, as an operator would meet it: the server jar in a process of its own.
 * What waiting cannot fix (a wrong password, a schema newer than the code, a data directory it may not write)
 * is one line, {@code cairn: ...}, and exit status 2, with no stack; a broker that does not answer is waited
 * for, each attempt one line of the log, and the worker starts when it answers.
 */
class StartupProblemsIT {

    private static final Duration EXIT_WITHIN = Duration.ofMinutes(3);

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestDatabase newerSchema = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dir;

    @Test
    void aWrongDatabasePasswordIsOneLineAndExitStatusTwo() {
        String url = db.jdbcUrl().replaceFirst("password=[^&]*", "password=not-" + db.password());
        try (CairnServerProcess worker = worker("wrong-password", dir.resolve("data"))
                .setting("cairn.database.url", url)
                .start()) {
            assertEquals(2, worker.awaitExit(EXIT_WITHIN), worker.logTail());
            String line = oneProblemLine(worker);
            assertTrue(line.startsWith("cairn: the database at " + host(db.jdbcUrl())), line);
            assertTrue(line.contains("password authentication failed"), line);
            assertFalse(worker.output().contains("not-" + db.password()), "the password is not printed");
        }
    }

    @Test
    void anUnreachableBrokerIsWaitedForAndTheWorkerStartsOnceItAnswers() throws Exception {
        URI amqp = broker.server().amqp();
        try (TcpProxy proxy = new TcpProxy(amqp.getHost(), amqp.getPort() < 0 ? 5672 : amqp.getPort())) {
            proxy.cut(); // the port refuses connections: the broker's host is up, the broker is not
            String uri = CairnServerProcess.amqpUri(broker).replaceFirst("@[^/]*/", "@127.0.0.1:" + proxy.port() + "/");
            try (CairnServerProcess worker = worker("broker-away", dir.resolve("data"))
                    .database(db)
                    .setting("cairn.broker.uri", uri)
                    .start()) {
                worker.awaitOutput("trying again in 2 s", EXIT_WITHIN);
                String line = worker.output()
                        .lines()
                        .filter(l -> l.contains("trying again in 1 s"))
                        .findFirst()
                        .orElseThrow();
                assertTrue(
                        line.contains(
                                "the broker at amqp://" + broker.server().user() + ":***@127.0.0.1:" + proxy.port()),
                        line);
                assertTrue(line.contains("does not answer (ConnectException: Connection refused)"), line);
                assertTrue(worker.isAlive(), "it waits" + worker.logTail());

                proxy.restore();
                worker.awaitReady();
                assertTrue(worker.output().contains("answers (attempt "), worker.logTail());
                assertFalse(worker.output().contains(":" + broker.server().password() + "@"), "no password");
            }
        }
    }

    /** SIGTERM while it waits: Spring's stop waits for the start-up to end, which the wait held off for ever. */
    @Test
    void aWorkerToldToStopWhileItWaitsForTheDatabaseStops() throws Exception {
        try (CairnServerProcess worker = worker("database-away", dir.resolve("data"))
                .broker(broker)
                .setting("cairn.database.url", "jdbc:postgresql://127.0.0.1:1/cairn?user=postgres")
                .start()) {
            worker.awaitOutput("trying again in 2 s", EXIT_WITHIN);
            worker.signal(CairnServerProcess.Signal.TERM);
            int exit = worker.awaitExit(Duration.ofSeconds(30));
            assertTrue(exit == 143 || exit == 2, "exit " + exit + worker.logTail());
        }
    }

    @Test
    void aSchemaNewerThanTheCodeIsOneLineAndExitStatusTwoAndIsLeftAsItWas() throws Exception {
        try (CairnServerProcess migrate = worker("migrate", dir.resolve("migrate"))
                .database(newerSchema)
                .setting("cairn.migrate-only", "true")
                .start()) {
            assertEquals(0, migrate.awaitExit(EXIT_WITHIN), migrate.logTail());
        }
        // what a newer build's migration leaves in the schema's history
        try (Connection c = newerSchema.connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                    + " checksum, installed_by, execution_time, success)"
                    + " SELECT max(installed_rank) + 1, '999', 'from a newer build', 'SQL',"
                    + " 'V999__from_a_newer_build.sql', 0, current_user, 0, true FROM flyway_schema_history");
        }
        long before = historyRows();

        try (CairnServerProcess worker = worker("newer-schema", dir.resolve("data"))
                .database(newerSchema)
                .start()) {
            assertEquals(2, worker.awaitExit(EXIT_WITHIN), worker.logTail());
            String line = oneProblemLine(worker);
            assertTrue(line.startsWith("cairn: the database schema is at version 999, newer than this build's"), line);
        }
        try (CairnServerProcess migrate = worker("migrate-newer", dir.resolve("migrate"))
                .database(newerSchema)
                .setting("cairn.migrate-only", "true")
                .start()) {
            assertEquals(2, migrate.awaitExit(EXIT_WITHIN), migrate.logTail());
            assertTrue(oneProblemLine(migrate).startsWith("cairn: the database schema is at version 999"));
        }
        assertEquals(before, historyRows(), "nothing was migrated");
    }

    @Test
    void aDataDirectoryItMayNotWriteIsOneLineAndExitStatusTwo() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        CairnServerProcess.Builder builder = worker("data-dir", data).database(db);
        if (System.getProperty("user.name").equals("root")) {
            // root writes everywhere: the server runs as nobody, as a service runs under a user of its own, and
            // the folder stays root's
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            builder.launcher("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
        } else {
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("r-xr-xr-x"));
        }
        try (CairnServerProcess worker = builder.start()) {
            assertEquals(2, worker.awaitExit(EXIT_WITHIN), worker.logTail());
            String line = oneProblemLine(worker);
            assertTrue(line.startsWith("cairn: cannot write the data directory " + data + " (not writable)"), line);
            assertTrue(line.endsWith("(cairn.data-dir, CAIRN_DATA_DIR)"), line);
        }
    }

    /** A worker of the test broker; a test's own settings replace those it names again. */
    private CairnServerProcess.Builder worker(String name, Path dataDir) {
        return CairnServerProcess.builder(name, dataDir).roles("worker").broker(broker);
    }

    /** The one line that says what was wrong; nothing of a stack beside it. */
    private static String oneProblemLine(CairnServerProcess server) {
        List<String> lines = server.output().lines().toList();
        List<String> problems =
                lines.stream().filter(l -> l.startsWith("cairn: ")).toList();
        assertEquals(1, problems.size(), server.logTail());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception:")), server.logTail());
        return problems.getFirst();
    }

    private static String host(String jdbcUrl) {
        return jdbcUrl.substring("jdbc:postgresql://".length()).split("\\?", 2)[0];
    }

    private static long historyRows() throws Exception {
        try (Connection c = newerSchema.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
            r.next();
            return r.getLong(1);
        }
    }
}
