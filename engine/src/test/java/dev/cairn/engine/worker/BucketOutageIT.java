package dev.cairn.engine.worker;

import static dev.cairn.engine.testing.TestProcesses.WRITE_FILE;
import static dev.cairn.engine.testing.TestProcesses.X;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.S3Location;
import dev.cairn.storage.objects.testing.FaultyProxy;
import dev.cairn.storage.objects.testing.S3Server;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The object store's bucket failing every request for a while, with steps that store files in flight
 * (S3Proxy behind a proxy that answers 500 to everything meanwhile): a step whose object could not be
 * stored rolls back and is tried again, as after a lost database connection, and every process finishes
 * once with its file, none excepted. Until the worker took a bucket outage for the service's failure, it
 * took it for the process's own and ended each such process excepted.
 */
class BucketOutageIT {

    static final int PROCESSES = 12;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dir;

    @Test
    void stepsWaitOutABucketThatFailsEveryRequestAndEachProcessFinishesOnce() throws Exception {
        try (S3Server server = new S3Server(dir.resolve("s3"));
                FaultyProxy proxy = new FaultyProxy(server.port(), 0, 1)) {
            // two tries a request: the outage reaches the step at once rather than after the SDK's backoff
            S3Location at =
                    server.location(proxy.endpoint(), dir.resolve("cache")).withRetries(2, Duration.ofSeconds(10));
            Container.init(at, ContainerConfig.bucketDefaults()).close();
            Engine.Config config = new Engine.Config(
                    DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6),
                    EngineFixture.amqpUri(broker),
                    "bucket",
                    null,
                    EngineFixture.plugins(),
                    null,
                    at,
                    null);
            try (Engine engine = EngineFixture.open(config);
                    Worker worker = engine.startWorker(Worker.Settings.defaults(2))) {
                proxy.failAll(true);
                int refusedBefore = proxy.refused.get();
                List<ProcessNode> nodes = new ArrayList<>();
                for (int i = 0; i < PROCESSES; i++) {
                    nodes.add(engine.launcher().submit(WRITE_FILE, Inputs.of(X, new IntData(i))));
                }
                // steps meet the outage: their stores are refused, again and again (or the processes end)
                Waits.until(
                        Duration.ofSeconds(60),
                        "steps to try to store their files",
                        () -> proxy.refused.get() - refusedBefore >= 3 * PROCESSES
                                || nodes.stream().allMatch(n -> ended(engine, n)));
                int refused = proxy.refused.get() - refusedBefore;
                proxy.failAll(false);

                for (ProcessNode n : nodes) {
                    Waits.until(Duration.ofSeconds(90), n.describe() + " to end", () -> ended(engine, n));
                }
                List<String> states = new ArrayList<>();
                for (ProcessNode n : nodes) {
                    states.add(state(engine, n));
                }
                assertEquals(Collections.nCopies(PROCESSES, "finished"), states);
                for (int i = 0; i < PROCESSES; i++) {
                    List<LinkTriple> files = engine.graph().outgoing(nodes.get(i)).stream()
                            .filter(l -> l.label().equals("file"))
                            .toList();
                    assertEquals(1, files.size(), "one file output of process " + i);
                    assertEquals(
                            "file " + i,
                            new String(
                                    engine.graph()
                                            .readFile(
                                                    engine.graph()
                                                            .load(files.get(0).nodeId()),
                                                    "x.txt"),
                                    StandardCharsets.UTF_8));
                }
                System.out.println("BucketOutageIT: " + PROCESSES + " processes storing files, " + refused
                        + " requests refused during the outage, every process finished once");
            }
        }
    }

    private static String state(Engine engine, ProcessNode n) {
        return ((ProcessNode) engine.graph().load(n.id())).processState();
    }

    private static boolean ended(Engine engine, ProcessNode n) {
        return List.of("finished", "excepted", "killed").contains(state(engine, n));
    }
}
