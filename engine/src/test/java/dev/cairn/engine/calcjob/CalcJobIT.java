package dev.cairn.engine.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.ComputerSpec;
import dev.cairn.storage.graph.ComputerStore;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;
import dev.cairn.engine.caching.CacheHit;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.graph.ProcessNode;

/** A calculation job on this machine: local transport, direct scheduler, real bash. */
class CalcJobIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();
    @RegisterExtension
    static final TestBroker broker = new TestBroker();
    @TempDir
    static Path tmp;

    static Engine engine;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        Path store = tmp.resolve("objects");
        Container.init(store, ContainerConfig.defaults()).close();
        engine = Engine.open(new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4), null, "cairn", store,
            EngineFixture.plugins()));
        long computer = new ComputerStore(engine.database()).create(new ComputerSpec("localhost", "localhost", "",
            "core.local", "core.direct", Map.of("workdir", tmp.resolve("work").toString()))).id();
        bash = engine.graph().store(new InstalledCode(computer, "/bin/bash"));
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @Test
    void anIdenticalJobIsTakenFromTheCacheWithoutANewWorkDirectory() throws Exception {
        Inputs inputs = Inputs.create().put(CalcJobDefinition.CODE, bash).put(X, new IntData(20)).put(Y, new IntData(22));
        ProcessResult first = engine.launcher().run(BASH_ADD, inputs);
        long workdirs = countWorkdirs();
        try (Engine caching = Engine.open(new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(2), null, "cairn",
            tmp.resolve("objects"), EngineFixture.plugins(), CachingPolicy.enabledFor("test.*")))) {
            ProcessResult again = caching.launcher().run(BASH_ADD, Inputs.create().put(CalcJobDefinition.CODE, bash)
                .put(X, new IntData(20)).put(Y, new IntData(22)));
            assertTrue(again.isFinishedOk());
            assertEquals(42, again.get(RESULT).value());
            assertEquals(first.node().uuid().toString(),
                ((CalcJobNode) caching.graph().load(again.node().id())).extras().get(CacheHit.CACHED_FROM));
        }
        assertEquals(workdirs, countWorkdirs(), "no new work directory");
    }

    private static long countWorkdirs() throws Exception {
        try (var walk = Files.walk(tmp.resolve("work"), 3)) {
            return walk.filter(p -> tmp.resolve("work").relativize(p).getNameCount() == 3).count();
        }
    }

    @Test
    void aSubmittedJobRunsOnAWorkerThatPollsItsScheduler() throws Exception {
        try (Engine withBroker = Engine.open(new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6),
            EngineFixture.amqpUri(broker), "cairn", tmp.resolve("objects"), EngineFixture.plugins()));
             Worker worker = withBroker.startWorker(Worker.Settings.defaults(2))) {
            ProcessNode node = withBroker.launcher().submit(BASH_ADD, Inputs.create().put(CalcJobDefinition.CODE, bash)
                .put(X, new IntData(7)).put(Y, new IntData(8)));
            Waits.until(java.time.Duration.ofSeconds(30), "the job to finish",
                () -> ((ProcessNode) withBroker.graph().load(node.id())).isSealed());
            ProcessNode done = (ProcessNode) withBroker.graph().load(node.id());
            assertEquals("finished", done.processState(), String.valueOf(done.exception()));
            assertEquals(0, done.exitStatus());
        }
    }

    @Test
    void killingAWaitingJobCancelsItsSchedulerJob() throws Exception {
        try (Engine withBroker = Engine.open(new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6),
            EngineFixture.amqpUri(broker), "cairn", tmp.resolve("objects"), EngineFixture.plugins()));
             Worker worker = withBroker.startWorker(Worker.Settings.defaults(2))) {
            ProcessNode node = withBroker.launcher().submit(dev.cairn.engine.testing.TestProcesses.BASH_SLEEP,
                Inputs.create().put(CalcJobDefinition.CODE, bash).put(X, new IntData(60)));
            Waits.until(java.time.Duration.ofSeconds(30), "the job to be submitted",
                () -> ((CalcJobNode) withBroker.graph().load(node.id())).jobId() != null
                    && "waiting".equals(((ProcessNode) withBroker.graph().load(node.id())).processState()));
            String pid = ((CalcJobNode) withBroker.graph().load(node.id())).jobId();
            assertTrue(ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false), "the job runs");
            assertEquals(java.util.List.of(node.id()), withBroker.control().kill(node.id()));
            Waits.until(java.time.Duration.ofSeconds(10), "the job's process to end",
                () -> !ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false));
            assertEquals("killed", ((ProcessNode) withBroker.graph().load(node.id())).processState());
        }
    }

    @Test
    void aJobRunsItsCodeAndIsParsed() throws Exception {
        ProcessResult r = engine.launcher().run(BASH_ADD, Inputs.create().put(CalcJobDefinition.CODE, bash)
            .put(X, new IntData(2)).put(Y, new IntData(3)));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(5, r.get(RESULT).value());
        Set<String> labels = engine.graph().outgoing(r.node()).stream().map(LinkTriple::label).collect(Collectors.toSet());
        assertEquals(Set.of("result", "retrieved", "remote_folder"), labels);
        CalcJobNode node = (CalcJobNode) r.node();
        RemoteData remote = (RemoteData) r.outputs().get("remote_folder");
        assertEquals(node.remoteWorkdir(), remote.remotePath());
        assertTrue(Files.exists(Path.of(remote.remotePath(), "aiida.in")), "the input was uploaded");
        FolderData retrieved = (FolderData) r.outputs().get("retrieved");
        assertEquals("5", new String(engine.graph().readFile(retrieved, "aiida.out")).strip());
    }
}
