package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_SLEEP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportPool;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * What all workers share about a computer, in the database: the connection slots, the poll
 * interval, the submission bucket; and the submission that a dead worker left behind.
 */
class ComputerPolitenessIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local().withObjects();

    @TempDir
    static Path tmp;

    static TransportPool transports;
    static ComputerAccess access;

    @BeforeAll
    static void open() throws Exception {
        transports = new TransportPool();
        access = new ComputerAccess(transports, fixture.engine().database());
    }

    @AfterAll
    static void close() {
        transports.close();
    }

    private static Computer computer(String label, Map<String, Object> settings) {
        Map<String, Object> all = new HashMap<>(settings);
        all.put("workdir", tmp.resolve(label).toString());
        return new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec(label, "localhost", "", "core.local", "core.direct", all));
    }

    @Test
    void aComputerWithOneConnectionSlotLetsASecondTransportWaitForTheFirst() throws Exception {
        Computer one = computer("one-slot", Map.of("max_connections", 1));
        ComputerSettings settings = ComputerSettings.of(one);
        CountDownLatch firstOpen = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
            try (Connection c = fixture.engine().database().connection()) {
                c.setAutoCommit(false);
                try (Transport t = access.open(one, settings)) {
                    firstOpen.countDown();
                    Thread.sleep(1000);
                }
                c.commit();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        assertTrue(firstOpen.await(10, TimeUnit.SECONDS));
        long waited = timeToOpen(one, settings);
        first.get(10, TimeUnit.SECONDS);
        assertTrue(waited >= 500, "the second transport waited for the slot (" + waited + " ms)");
        assertTrue(timeToOpen(one, settings) < 500, "a free slot is taken at once");
    }

    private static long timeToOpen(Computer computer, ComputerSettings settings) throws Exception {
        long start = System.nanoTime();
        try (Connection c = fixture.engine().database().connection()) {
            c.setAutoCommit(false);
            try (Transport t = access.open(computer, settings)) {
                return (System.nanoTime() - start) / 1_000_000;
            } finally {
                c.rollback();
            }
        }
    }

    @Test
    void threeEnginesWithFourThreadsEachNeverHoldMoreThanTheComputersSlots() throws Exception {
        Computer two = computer("two-slots", Map.of("max_connections", 2));
        ComputerSettings settings = ComputerSettings.of(two);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        List<TransportPool> pools = List.of(new TransportPool(), new TransportPool(), new TransportPool());
        try (ExecutorService threads = Executors.newFixedThreadPool(12)) {
            List<Future<?>> uses = new ArrayList<>();
            for (TransportPool pool : pools) {
                ComputerAccess engineAccess =
                        new ComputerAccess(pool, fixture.engine().database());
                for (int i = 0; i < 4; i++) {
                    uses.add(threads.submit(() -> {
                        for (int use = 0; use < 5; use++) {
                            try (Transport t = engineAccess.open(two, settings)) {
                                peak.accumulateAndGet(open.incrementAndGet(), Math::max);
                                Thread.sleep(20);
                                open.decrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> use : uses) {
                use.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pools.forEach(TransportPool::close);
        }
        assertEquals(2, peak.get(), "60 uses by 12 threads of 3 engines, 2 at once at most (and at some point 2)");
    }

    @Test
    void anIdleKeptConnectionHoldsItsSlotUntilAnotherEngineWaitsForIt() throws Exception {
        Path keys = Files.createDirectories(tmp.resolve("kept-ssh"));
        try (TestSshServer sshd = TestSshServer.start(keys);
                TransportPool otherPool = new TransportPool()) {
            Computer login = sshComputer("kept-login", sshd, keys);
            ComputerSettings settings = ComputerSettings.of(login);
            ComputerAccess otherEngine =
                    new ComputerAccess(otherPool, fixture.engine().database());

            try (Transport t = access.open(login, settings)) {
                assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
            }
            // kept for this engine's next operation, and still counted: the login node sees it
            Thread.sleep(1500); // past the pool's closer pass, which must leave it alone
            assertEquals(1, sshd.openSessions(), "the connection is kept while nobody waits for its slot");

            long start = System.nanoTime();
            try (Transport t = otherEngine.open(login, settings)) {
                long waited = (System.nanoTime() - start) / 1_000_000;
                assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
                // the first engine closed its idle connection for the waiting one, long before its keep-alive
                // ended
                assertTrue(waited < 10_000, "the slot was handed over after " + waited + " ms");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (sshd.openSessions() > 1 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals(1, sshd.openSessions(), "the login node sees one connection: the other engine's");
                System.out.println(
                        "ComputerPolitenessIT: an idle connection's slot went to the engine waiting for it in " + waited
                                + " ms (keep-alive 120 s)");
            }
            assertEquals(2, sshd.connections(), "two logins in all");
        }
    }

    @Test
    void aComputerWithALimitNeverUsesAConnectionKeptForAnotherOnTheSameLoginNode() throws Exception {
        Path keys = Files.createDirectories(tmp.resolve("shared-ssh"));
        try (TestSshServer sshd = TestSshServer.start(keys)) {
            Computer slurm = sshComputer("shared-slurm", sshd, keys);
            Computer direct = sshComputer("shared-direct", sshd, keys);
            try (Transport t = access.open(slurm, ComputerSettings.of(slurm))) {
                assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
            }
            try (Transport t = access.open(direct, ComputerSettings.of(direct))) {
                assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
            }
            // the same host, user and key: one connection would do, but it holds the first computer's slot
            assertEquals(2, sshd.connections(), "each computer logged in with a slot of its own");
            try (Transport t = access.open(slurm, ComputerSettings.of(slurm))) {
                assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
            }
            assertEquals(2, sshd.connections(), "each computer's next operation takes its own kept connection");
        }
    }

    /** A computer reached over SSH at {@code sshd} allowing one connection, kept two minutes after use. */
    private static Computer sshComputer(String label, TestSshServer sshd, Path keys) {
        Map<String, Object> all = new HashMap<>();
        all.put("workdir", keys.toString());
        all.put("transport_params", sshd.transportParams(keys.resolve("known_hosts")));
        all.put("max_connections", 1);
        all.put("connection_keep_alive", 120);
        return new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec(label, "127.0.0.1", "", "core.ssh", "core.direct", all));
    }

    @Test
    void thePollIntervalAndTheFailureCountAreKeptForAllWorkers() throws Exception {
        long id = computer("polled", Map.of()).id();
        try (Connection c = fixture.engine().database().connection()) {
            assertTrue(ComputerActivity.pollDue(c, id), "a computer never polled is due");
            ComputerActivity.polled(c, id, Duration.ofHours(1));
            assertFalse(ComputerActivity.pollDue(c, id), "not again within the interval");
            ComputerActivity.polled(c, id, Duration.ZERO);
            assertTrue(ComputerActivity.pollDue(c, id));
            assertEquals(1, ComputerActivity.pollFailed(c, id, n -> Duration.ofHours(n)));
            assertEquals(2, ComputerActivity.pollFailed(c, id, n -> Duration.ofHours(n)));
            assertFalse(ComputerActivity.pollDue(c, id), "a failed poll waits for its backoff");
            ComputerActivity.polled(c, id, Duration.ZERO);
            assertEquals(
                    1, ComputerActivity.pollFailed(c, id, n -> Duration.ZERO), "a good poll starts the count again");
        }
    }

    @Test
    void submissionsPerMinuteAreSpacedOnceTheBucketIsEmpty() throws Exception {
        long id = computer("bucket", Map.of()).id();
        try (Connection c = fixture.engine().database().connection()) {
            assertEquals(Duration.ZERO, ComputerActivity.reserveSubmission(c, id, 2));
            assertEquals(Duration.ZERO, ComputerActivity.reserveSubmission(c, id, 2));
            Duration third = ComputerActivity.reserveSubmission(c, id, 2);
            assertTrue(
                    third.toMillis() > 29_000 && third.toMillis() <= 30_000,
                    "the third waits for half a minute: " + third);
            Duration fourth = ComputerActivity.reserveSubmission(c, id, 2);
            assertTrue(
                    fourth.toMillis() > 59_000 && fourth.toMillis() <= 60_000,
                    "and the fourth for a minute: " + fourth);
        }
    }

    @Test
    void aSubmissionAfterADeadWorkersFindsItsJobInsteadOfSubmittingAgain() throws Exception {
        Computer local = computer("resubmit", Map.of());
        InstalledCode bash = fixture.engine().graph().store(new InstalledCode(local.id(), "/bin/bash"));
        ProcessInputs inputs = new ProcessInputs(Map.of("code", bash, "x", new IntData(30)));
        CalcJobNode node = new CalcJobNode(BASH_SLEEP.entryPoint());
        JobOptions.defaults().toAttributes().forEach(node::setStaticAttribute);
        node.setComputerId(local.id());
        fixture.engine().graph().store(node); // a submission keeps the job's files on its stored node
        CalcJobRunner runner = new CalcJobRunner(
                new Computers(fixture.engine().database()), fixture.engine().graph(), access);
        String first = submitAndRollBack(runner, node, inputs);
        try {
            // the first worker died before its commit: nothing of its step stayed but the job itself
            String second = submitAndRollBack(runner, node, inputs);
            assertEquals(first, second, "the running job was found by its name");
        } finally {
            ProcessHandle.of(Long.parseLong(first)).ifPresent(ProcessHandle::destroy);
        }
    }

    private static String submitAndRollBack(CalcJobRunner runner, CalcJobNode node, ProcessInputs inputs)
            throws Exception {
        try (Connection c = fixture.engine().database().connection()) {
            c.setAutoCommit(false);
            try {
                return runner.submit(c, (CalcJobDefinition) BASH_SLEEP, node, inputs)
                        .jobId();
            } finally {
                c.rollback();
            }
        }
    }
}
