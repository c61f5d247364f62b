package dev.cairn.engine;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An engine owns what its transports keep between uses. Closing it ends the kept local shells
 * (their processes and their folders), closes the kept SSH connections and stops the threads
 * of both, so a server that closes an engine and opens another in the same JVM leaks nothing,
 * and the next engine runs calculation jobs as the first did.
 */
class EngineCloseIT {

    /** The thread that reads a kept local shell's output, one per shell. */
    private static final String SHELL_READER = "cairn-local-shell";
    /** The thread that closes SSH connections idle for longer than their keep-alive. */
    private static final String IDLE_CLOSER = "cairn-idle-transports";
    /** The threads of an SSH connection's client (the test server's are sshd-SshServer...). */
    private static final String SSH_CLIENT = "sshd-SshClient";

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path tmp;

    static TestSshServer sshd;

    @BeforeAll
    static void start() throws Exception {
        Container.init(tmp.resolve("objects"), ContainerConfig.defaults()).close();
        sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")));
    }

    @AfterAll
    static void stop() throws Exception {
        sshd.close();
    }

    @Test
    void closingTheEngineLeavesNoShellConnectionOrThreadAndAnotherEngineRunsAfterIt() throws Exception {
        Resources before = Resources.now();
        Engine first = open();
        long local = computer(first, "localhost", "core.local", Map.of());
        long login = computer(first, "login", "core.ssh", sshParams());
        runJobs(first, local, login, 1);

        Resources kept = Resources.now().since(before);
        assertFalse(kept.threads(SHELL_READER).isEmpty(), "kept shells, each with its reader: " + kept);
        assertFalse(kept.threads(IDLE_CLOSER).isEmpty(), "the thread closing idle connections: " + kept);
        assertFalse(kept.processes().isEmpty(), "the kept shells are processes of this JVM: " + kept);
        assertFalse(kept.shellFolders().isEmpty(), "the kept shells' output folders: " + kept);
        assertTrue(sshd.openSessions() > 0, "the SSH connection is kept open for the next use");

        first.close();
        assertNothingLeftSince(before);
        first.close(); // closing again is harmless
        assertNothingLeftSince(before);

        try (Engine second = open()) {
            runJobs(second, local, login, 2);
        }
        assertNothingLeftSince(before);
    }

    private static Engine open() {
        return Engine.open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6),
                EngineFixture.amqpUri(broker),
                "cairn",
                tmp.resolve("objects"),
                EngineFixture.plugins()));
    }

    private static Map<String, Object> sshParams() {
        return sshd.transportParams(tmp.resolve("known_hosts"));
    }

    private static long computer(Engine engine, String label, String transport, Map<String, Object> params) {
        Map<String, Object> settings = Map.of(
                "workdir",
                tmp.resolve("work-" + label).toString(),
                "minimum_job_poll_interval",
                0.1,
                "transport_params",
                params);
        return new ComputerStore(engine.database())
                .create(new ComputerSpec(label, "127.0.0.1", "", transport, "core.direct", settings))
                .id();
    }

    /**
     * Calculation jobs through every user of the transports: in this thread (launcher, step
     * executor, job poller) on the local computer and over SSH, then on a worker.
     */
    private static void runJobs(Engine engine, long local, long login, int round) throws Exception {
        for (long computer : List.of(local, login)) {
            ProcessResult r = engine.launcher().run(BASH_ADD, add(engine, computer, round));
            assertTrue(r.isFinishedOk(), String.valueOf(r.node().exception()));
            assertEquals(40 + round, r.get(RESULT).value());
        }
        try (Worker worker = engine.startWorker(Worker.Settings.defaults(1))) {
            ProcessNode node = engine.launcher().submit(BASH_ADD, add(engine, local, round));
            Waits.until(
                    Duration.ofSeconds(30),
                    "the job to end on the worker",
                    () -> ((ProcessNode) engine.graph().load(node.id())).isSealed());
            ProcessNode done = (ProcessNode) engine.graph().load(node.id());
            assertEquals("finished", done.processState(), String.valueOf(done.exception()));
            assertEquals(0, done.exitStatus());
        }
    }

    private static Inputs add(Engine engine, long computer, int round) {
        InstalledCode bash = engine.graph().store(new InstalledCode(computer, "/bin/bash"));
        return bashAdd(bash, 40, round);
    }

    private static void assertNothingLeftSince(Resources before) throws InterruptedException {
        // what close() ended may take a moment to be gone from the lists (a thread exiting, a
        // session the server closes on its side)
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Resources left = Resources.now().since(before);
        while (!left.isEmpty() || sshd.openSessions() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("left after the engine closed: " + left + ", " + sshd.openSessions()
                        + " SSH session(s) open on the server");
            }
            Thread.sleep(50);
            left = Resources.now().since(before);
        }
    }

    /**
     * What a closed engine must not leave: threads of the transport pool and of SSH clients,
     * processes started by this JVM (kept shells are its children), and kept shells' folders.
     */
    private record Resources(Set<Thread> allThreads, Set<Long> processes, Set<Path> shellFolders) {

        static Resources now() {
            Set<Thread> threads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive()
                            && Stream.of(SHELL_READER, IDLE_CLOSER, SSH_CLIENT).anyMatch(t.getName()::startsWith))
                    .collect(Collectors.toSet());
            Set<Long> processes = ProcessHandle.current()
                    .descendants()
                    .filter(ProcessHandle::isAlive)
                    .map(ProcessHandle::pid)
                    .collect(Collectors.toSet());
            return new Resources(threads, processes, listShellFolders());
        }

        /** Folders of this JVM's kept shells: {@code cairn-shell-<pid>-…} on /dev/shm, else in the temp directory. */
        private static Set<Path> listShellFolders() {
            Path shm = Path.of("/dev/shm");
            Path root = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? shm
                    : Path.of(System.getProperty("java.io.tmpdir"));
            String prefix = "cairn-shell-" + ProcessHandle.current().pid() + "-";
            try (Stream<Path> entries = Files.list(root)) {
                return entries.filter(p -> p.getFileName().toString().startsWith(prefix))
                        .collect(Collectors.toSet());
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + root, e);
            }
        }

        /** What is here now and was not in {@code before}. */
        Resources since(Resources before) {
            return new Resources(
                    minus(allThreads, before.allThreads),
                    minus(processes, before.processes),
                    minus(shellFolders, before.shellFolders));
        }

        private static <T> Set<T> minus(Set<T> all, Set<T> old) {
            Set<T> left = new HashSet<>(all);
            left.removeAll(old);
            return left;
        }

        Set<String> threads(String prefix) {
            return allThreads.stream()
                    .map(Thread::getName)
                    .filter(n -> n.startsWith(prefix))
                    .collect(Collectors.toSet());
        }

        boolean isEmpty() {
            return allThreads.isEmpty() && processes.isEmpty() && shellFolders.isEmpty();
        }

        @Override
        public String toString() {
            return "threads "
                    + allThreads.stream().map(Thread::getName).sorted().toList() + ", processes "
                    + processes.stream()
                            .map(pid -> pid + " "
                                    + ProcessHandle.of(pid)
                                            .flatMap(p -> p.info().commandLine())
                                            .orElse("?"))
                            .toList()
                    + ", shell folders " + shellFolders;
        }
    }
}
