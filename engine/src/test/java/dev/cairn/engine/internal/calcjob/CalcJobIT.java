package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.launch.DryRun;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/** A calculation job on this machine: local transport, direct scheduler, real bash. */
class CalcJobIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.localBesideBroker().withObjects();

    @TempDir
    static Path tmp;

    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        bash = EngineFixture.bashOnThisMachine(fixture.engine(), tmp.resolve("work"));
    }

    @Test
    void anIdenticalJobIsTakenFromTheCacheWithoutANewWorkDirectory() throws Exception {
        Inputs inputs = bashAdd(bash, 20, 22);
        ProcessResult first = fixture.engine().launcher().run(BASH_ADD, inputs);
        long workdirs = countWorkdirs();
        assertEquals(
                List.of("_cairn_submit.sh", "aiida.in"),
                fixture.engine().graph().load(first.node().id()).files().list(""));
        assertFalse(
                fixture.engine().graph().rehash(first.node().id()).changed(),
                "the input files it keeps are no part of the job's hash: a rehash leaves it a cache source");
        try (Engine caching = EngineFixture.open(new Engine.Config(
                DatabaseConfig.of(fixture.db().jdbcUrl()).withPoolSize(2),
                null,
                "cairn",
                fixture.objectStore(),
                EngineFixture.plugins(),
                CachingPolicy.enabledFor("test.*")))) {
            ProcessResult again = caching.launcher().run(BASH_ADD, bashAdd(bash, 20, 22));
            assertTrue(again.isFinishedOk());
            assertEquals(42, again.get(RESULT).value());
            assertEquals(
                    first.node().uuid().toString(),
                    ((CalcJobNode) caching.graph().load(again.node().id()))
                            .extras()
                            .get(CachingExtras.CACHED_FROM));
        }
        assertEquals(workdirs, countWorkdirs(), "no new work directory");
    }

    private static long countWorkdirs() throws Exception {
        try (var walk = Files.walk(tmp.resolve("work"), 3)) {
            return walk.filter(p -> tmp.resolve("work").relativize(p).getNameCount() == 3)
                    .count();
        }
    }

    @Test
    void aSubmittedJobRunsOnAWorkerThatPollsItsScheduler() throws Exception {
        try (Engine withBroker = EngineFixture.open(new Engine.Config(
                        DatabaseConfig.of(fixture.db().jdbcUrl()).withPoolSize(6),
                        EngineFixture.amqpUri(fixture.broker()),
                        "cairn",
                        fixture.objectStore(),
                        EngineFixture.plugins()));
                Worker worker = withBroker.startWorker(Worker.Settings.defaults(2))) {
            ProcessNode node = withBroker.launcher().submit(BASH_ADD, bashAdd(bash, 7, 8));
            Waits.until(
                    Duration.ofSeconds(30),
                    "the job to finish",
                    () -> ((ProcessNode) withBroker.graph().load(node.id())).isSealed());
            ProcessNode done = (ProcessNode) withBroker.graph().load(node.id());
            assertEquals("finished", done.processState(), String.valueOf(done.exception()));
            assertEquals(0, done.exitStatus());
        }
    }

    @Test
    void killingAWaitingJobCancelsItsSchedulerJob() throws Exception {
        try (Engine withBroker = EngineFixture.open(new Engine.Config(
                        DatabaseConfig.of(fixture.db().jdbcUrl()).withPoolSize(6),
                        EngineFixture.amqpUri(fixture.broker()),
                        "cairn",
                        fixture.objectStore(),
                        EngineFixture.plugins()));
                Worker worker = withBroker.startWorker(Worker.Settings.defaults(2))) {
            ProcessNode node = withBroker
                    .launcher()
                    .submit(
                            TestProcesses.BASH_SLEEP,
                            Inputs.create().put(CalcJobDefinition.CODE, bash).put(X, new IntData(60)));
            Waits.until(
                    Duration.ofSeconds(30),
                    "the job to be submitted",
                    () -> ((CalcJobNode) withBroker.graph().load(node.id())).jobId() != null
                            && "waiting"
                                    .equals(((ProcessNode) withBroker.graph().load(node.id())).processState()));
            String pid = ((CalcJobNode) withBroker.graph().load(node.id())).jobId();
            assertTrue(
                    ProcessHandle.of(Long.parseLong(pid))
                            .map(ProcessHandle::isAlive)
                            .orElse(false),
                    "the job runs");
            assertEquals(List.of(node.id()), withBroker.control().kill(node.id()));
            Waits.until(
                    Duration.ofSeconds(10),
                    "the job's process to end",
                    () -> !ProcessHandle.of(Long.parseLong(pid))
                            .map(ProcessHandle::isAlive)
                            .orElse(false));
            assertEquals("killed", ((ProcessNode) withBroker.graph().load(node.id())).processState());
        }
    }

    @Test
    void aJobRunsItsCodeAndIsParsed() throws Exception {
        ProcessResult r = fixture.engine().launcher().run(BASH_ADD, bashAdd(bash, 2, 3));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(5, r.get(RESULT).value());
        Set<String> labels = fixture.engine().graph().outgoing(r.node()).stream()
                .map(LinkTriple::label)
                .collect(Collectors.toSet());
        assertEquals(Set.of("result", "retrieved", "remote_folder"), labels);
        CalcJobNode node = (CalcJobNode) r.node();
        RemoteData remote = (RemoteData) r.outputs().get("remote_folder");
        assertEquals(node.remoteWorkdir(), remote.remotePath());
        assertTrue(Files.exists(Path.of(remote.remotePath(), "aiida.in")), "the input was uploaded");
        FolderData retrieved = (FolderData) r.outputs().get("retrieved");
        assertEquals("5", new String(fixture.engine().graph().readFile(retrieved, "aiida.out")).strip());
        CalcJobNode stored = (CalcJobNode) fixture.engine().graph().load(node.id());
        assertEquals(List.of("_cairn_submit.sh", "aiida.in"), stored.files().list(""), "the job keeps its input");
        assertEquals("echo $((2 + 3))\n", new String(fixture.engine().graph().readFile(stored, "aiida.in")));
        assertEquals(
                Files.readString(Path.of(remote.remotePath(), "_cairn_submit.sh")),
                new String(fixture.engine().graph().readFile(stored, "_cairn_submit.sh")),
                "the script kept is the one submitted");
    }

    @Test
    void optionsShapeTheScriptAndAreStoredOnTheNode() throws Exception {
        JobOptions options = JobOptions.defaults()
                .withResources(1, 2, 1)
                .withLimits(600L, null)
                .withEnvironment(Map.of("CAIRN_GREETING", "hello $there"), true)
                .withText("echo \"$CAIRN_GREETING\" > greeting.txt", "echo after >> greeting.txt")
                .withAdditionalRetrieveList(List.of("greeting.txt"));
        ProcessResult r = fixture.engine().launcher().run(BASH_ADD, bashAdd(bash, 2, 3, options));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(5, r.get(RESULT).value());
        FolderData retrieved = (FolderData) r.outputs().get("retrieved");
        assertEquals(
                "hello $there\nafter",
                new String(fixture.engine().graph().readFile(retrieved, "greeting.txt")).strip(),
                "the variable is literal, prepend runs before the code and append after");
        CalcJobNode node = (CalcJobNode) fixture.engine().graph().load(r.node().id());
        assertEquals(
                Map.of("num_machines", 1L, "num_mpiprocs_per_machine", 2L, "num_cores_per_mpiproc", 1L),
                node.attribute("resources"));
        assertEquals(600L, node.attribute("max_wallclock_seconds"));
        assertEquals(List.of("aiida.out", "greeting.txt"), node.attribute("retrieve_list"));
    }

    @Test
    void badOptionsAreRefusedAndNothingIsStored() throws Exception {
        long before = nodeCount();
        // a value no batch system takes is refused as the options are made, before any launch
        InvalidInputException e = assertThrows(
                InvalidInputException.class, () -> JobOptions.defaults().withQueue("debug queue", null, null));
        assertTrue(e.getMessage().contains("queue 'debug queue'"), e.getMessage());
        InvalidInputException notAJob = assertThrows(
                InvalidInputException.class,
                () -> fixture.engine()
                        .launcher()
                        .run(
                                TestProcesses.ADD,
                                Inputs.of(X, new IntData(1), Y, new IntData(1)).jobOptions(JobOptions.defaults())));
        assertTrue(notAJob.getMessage().contains("takes no job options"), notAJob.getMessage());
        assertThrows(InvalidInputException.class, () -> JobOptions.defaults().withResources(0, null, 1));
        assertEquals(before, nodeCount(), "no node of a refused launch stays");
    }

    @Test
    void aDryRunWritesTheFilesAndScriptAndStoresNothing() throws Exception {
        long before = nodeCount();
        long workdirs = countWorkdirs();
        Path folder = tmp.resolve("dry-run");
        DryRun dry = fixture.engine()
                .launcher()
                .dryRun(BASH_ADD, bashAdd(bash, 4, 5, JobOptions.defaults().withText("module load x", "")), folder);
        assertEquals(
                "echo $((4 + 5))", Files.readString(folder.resolve("aiida.in")).strip());
        String script = Files.readString(folder.resolve("_cairn_submit.sh"));
        assertEquals(dry.script(), script);
        assertTrue(script.contains("module load x") && script.contains("/bin/bash < aiida.in > aiida.out"), script);
        assertTrue(dry.workdir().startsWith(tmp.resolve("work").toString()) && !Files.exists(Path.of(dry.workdir())));
        assertEquals(before, nodeCount(), "a dry run stores nothing");
        assertEquals(workdirs, countWorkdirs(), "a dry run uploads nothing");
    }

    @Test
    void aJobWhoseWorkDirectoryIsGoneIsNoCacheSource() throws Exception {
        Inputs inputs = bashAdd(bash, 30, 12);
        ProcessResult first = fixture.engine().launcher().run(BASH_ADD, inputs);
        try (var walk = Files.walk(Path.of(((CalcJobNode) first.node()).remoteWorkdir()))) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        try (Engine caching = EngineFixture.open(new Engine.Config(
                DatabaseConfig.of(fixture.db().jdbcUrl()).withPoolSize(2),
                null,
                "cairn",
                fixture.objectStore(),
                EngineFixture.plugins(),
                CachingPolicy.enabledFor("test.*")))) {
            ProcessResult again = caching.launcher().run(BASH_ADD, bashAdd(bash, 30, 12));
            assertTrue(again.isFinishedOk());
            assertEquals(42, again.get(RESULT).value());
            CalcJobNode rerun = (CalcJobNode) caching.graph().load(again.node().id());
            assertNull(
                    rerun.extras().get(CachingExtras.CACHED_FROM),
                    "ran again rather than copy a dangling work directory");
            assertTrue(Files.isDirectory(Path.of(rerun.remoteWorkdir())));
            Map<String, Object> sourceExtras =
                    caching.graph().load(first.node().id()).extras();
            assertEquals(false, sourceExtras.get(CachingExtras.VALID_CACHE));
            assertTrue(String.valueOf(sourceExtras.get(CachingExtras.INVALID_REASON))
                    .contains("no longer exists"));
        }
    }

    @Test
    void aPortableCodeIsUploadedWithTheJobToTheComputerTheLaunchNames() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("portable"));
        Files.writeString(code.resolve("run.sh"), "#!/bin/bash\nexec bash\n");
        PortableCode portable = fixture.engine().graph().store(new PortableCode(code, "run.sh"));
        Inputs inputs = bashAdd(portable, 6, 7);
        InvalidInputException where = assertThrows(
                InvalidInputException.class, () -> fixture.engine().launcher().run(BASH_ADD, inputs));
        assertTrue(where.getMessage().contains("name the computer"), where.getMessage());
        ProcessResult r = fixture.engine().launcher().run(BASH_ADD, inputs.onComputer(bash.computerId()));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(13, r.get(RESULT).value());
        assertEquals(bash.computerId(), r.node().computerId());
        assertTrue(Files.isExecutable(Path.of(((CalcJobNode) r.node()).remoteWorkdir(), "run.sh")));
        assertEquals(
                List.of("_cairn_submit.sh", "aiida.in"),
                fixture.engine().graph().load(r.node().id()).files().list(""),
                "the code's files stay on the code's node only");
    }

    @Test
    void anInProcessRunRetriesAFailingSubmissionThenEndsPausedSayingWhy() throws Exception {
        Path blocker = Files.writeString(tmp.resolve("not-a-directory"), "x");
        long computer = new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec(
                        "blocked-run",
                        "localhost",
                        "",
                        "core.local",
                        "core.direct",
                        Map.of(
                                "workdir",
                                blocker.resolve("work").toString(),
                                "retry_attempts",
                                3,
                                "retry_initial_interval",
                                0.05)))
                .id();
        InstalledCode code = fixture.engine().graph().store(new InstalledCode(computer, "/bin/bash"));
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> fixture.engine().launcher().run(BASH_ADD, bashAdd(code, 1, 1)));
        assertTrue(
                e.getMessage().contains("paused): Paused: submitting the job to blocked-run failed 3 times"),
                e.getMessage());
    }

    private static long nodeCount() throws Exception {
        try (var c = fixture.engine().database().connection();
                var s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM node")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
