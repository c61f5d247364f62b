package dev.cairn.api.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.api.testing.Amqp;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.engine.Engine;
import dev.cairn.engine.metrics.TaskQueueState;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.Inputs;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The server told to stop (SIGTERM, as an orchestrator stops it) while a step runs: the server jar in
 * a JVM of its own, against the test class's database and virtual host. The step finishes and
 * commits, its task is acknowledged (none is left in the queue), and only then does the JVM exit.
 */
@ExtendWith(ApiServices.class)
class GracefulShutdownIT {

    private static final Path JAR = Path.of("target", "cairn-server.jar");
    private static final int STEP_MILLIS = 4000;

    @TempDir
    Path dataDir;

    @Test
    void aStepRunningWhenTheServerIsToldToStopFinishesAndCommitsThenTheJvmExits() throws Exception {
        assertTrue(
                Files.isRegularFile(JAR),
                JAR.toAbsolutePath() + " is missing: the integration tests run after package");
        TestDatabase db = ApiServices.db();
        String amqp = Amqp.uri(ApiServices.broker());
        PluginJar.write(dataDir.resolve("plugins"));
        int port = freePort();
        Path log = dataDir.resolve("server.log");
        Process server = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        JAR.toAbsolutePath().toString(),
                        "--server.port=" + port,
                        "--cairn.data-dir=" + dataDir,
                        "--cairn.database.url=" + db.jdbcUrl(),
                        "--cairn.database.pool-size=4",
                        "--cairn.broker.uri=" + amqp,
                        "--cairn.worker.slots=2")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try (Engine engine = Engine.open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(2),
                amqp,
                "cairn",
                null,
                PluginRegistry.of(List.of(new SlowSteps()))))) {
            awaitReady(server, new Api("http://localhost:" + port, null), log);
            ProcessNode slow =
                    engine.launcher().submit(SlowSteps.SLEEP, Inputs.of(SlowSteps.MILLIS, new IntData(STEP_MILLIS)));
            Steps.awaitRunning(db, slow.id(), Duration.ofSeconds(30));

            long asked = System.nanoTime();
            server.destroy(); // SIGTERM
            assertTrue(
                    server.waitFor(90, TimeUnit.SECONDS), "the JVM did not exit; its log:\n" + Files.readString(log));
            long millis = (System.nanoTime() - asked) / 1_000_000;
            System.out.println("GracefulShutdownIT: the JVM exited " + millis + " ms after SIGTERM (exit status "
                    + server.exitValue() + "), its step of " + STEP_MILLIS + " ms having started just before");

            String output = Files.readString(log);
            assertEquals("finished", Steps.state(db, slow.id()), output);
            assertEquals(
                    1, Steps.count(db, "SELECT count(*) FROM link WHERE input_id = ? AND label = 'slept'", slow.id()));
            assertTrue(millis >= STEP_MILLIS / 2, "the JVM waited for the step: " + millis + " ms");
            TaskQueueState queue = engine.metrics().taskQueue();
            assertEquals(0, queue.ready(), "the step's task was acknowledged, not handed back");
            assertEquals(0, queue.consumers(), "the stopped worker consumes no more");
            assertTrue(output.contains("worker role stopped (1 steps run)"), output);
        } finally {
            if (server.isAlive()) {
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void awaitReady(Process server, Api api, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            if (!server.isAlive()) {
                throw new AssertionError("the server exited at start:\n" + Files.readString(log));
            }
            try {
                if (api.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server was not ready within 120 s:\n" + Files.readString(log));
            }
            Thread.sleep(250);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
