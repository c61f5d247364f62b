package dev.cairn.engine.launch;

import static dev.cairn.engine.testing.EngineFixture.count;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LogStore;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.users.UserStore;

/** Every write knows its user: a launch, what its processes make, and a pause, play or kill. */
class UsersIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker().withWorker(4);

    static long alice;
    static long bob;
    static long carol;
    static long dave;

    @BeforeAll
    static void users() {
        UserStore users = new UserStore(fixture.engine().database());
        alice = users.create("alice@example.org", "Alice", "A", "").id();
        bob = users.create("bob@example.org", "Bob", "B", "").id();
        carol = users.create("carol@example.org", "Carol", "C", "").id();
        dave = users.create("dave@example.org", "Dave", "D", "").id();
    }

    /**
     * The provenance of some processes: the processes, what they called, their inputs and
     * what they created or returned, as node ids.
     */
    private static String provenanceOf(List<ProcessNode> roots) {
        String ids = roots.stream().map(n -> Long.toString(n.id())).collect(Collectors.joining(","));
        return "WITH RECURSIVE tree(id) AS (SELECT unnest(ARRAY[" + ids + "]::bigint[])"
                + " UNION SELECT l.output_id FROM link l JOIN tree t ON l.input_id = t.id"
                + " WHERE l.type IN ('call_calc', 'call_work', 'create', 'return'))"
                + " SELECT id FROM tree UNION SELECT l.input_id FROM link l JOIN tree t ON l.output_id = t.id"
                + " WHERE l.type IN ('input_calc', 'input_work')";
    }

    @Test
    void twoUsersLaunchingAtOnceEachOwnExactlyTheirProvenance() throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Future<List<ProcessNode>> ofAlice = two.submit(launches(alice, 0));
            Future<List<ProcessNode>> ofBob = two.submit(launches(bob, 1000));
            List<ProcessNode> aliceRoots = ofAlice.get();
            List<ProcessNode> bobRoots = ofBob.get();
            List<ProcessNode> all = new ArrayList<>(aliceRoots);
            all.addAll(bobRoots);
            for (ProcessNode root : all) {
                Waits.until(
                        Duration.ofSeconds(60),
                        root.describe() + " to finish",
                        () -> "finished"
                                .equals(((ProcessNode) fixture.engine().graph().load(root.id())).processState()));
            }
            for (var owner : List.of(new Owner(alice, aliceRoots), new Owner(bob, bobRoots))) {
                String provenance = provenanceOf(owner.roots());
                long size = count(fixture.db(), "SELECT count(*) FROM (" + provenance + ") p");
                // each work chain: its 2 inputs, a child add with its output, an inline add with its output
                assertEquals(owner.roots().size() * 7L, size, "the provenance of user " + owner.user());
                assertEquals(
                        size,
                        count(
                                fixture.db(),
                                "SELECT count(*) FROM node WHERE id IN (" + provenance + ") AND user_id = "
                                        + owner.user()),
                        "every node of user " + owner.user() + "'s provenance is theirs");
                assertEquals(
                        size,
                        count(fixture.db(), "SELECT count(*) FROM node WHERE user_id = " + owner.user()),
                        "user " + owner.user() + " owns nothing else");
            }
        } finally {
            two.shutdownNow();
        }
    }

    private record Owner(long user, List<ProcessNode> roots) {}

    /** Ten work chains launched by {@code user}, one at a time, each submitting a child and running a function. */
    private static Callable<List<ProcessNode>> launches(long user, int offset) {
        return () -> {
            Launcher launcher = fixture.engine().launcher().forUser(user);
            List<ProcessNode> roots = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                roots.add(launcher.submit(
                        TestProcesses.ChildThenAdd.DEFINITION,
                        Inputs.of(X, new IntData(offset + i), Y, new IntData(1))));
            }
            return roots;
        };
    }

    @Test
    void pausePlayAndKillAreReportedUnderTheirUser() throws Exception {
        ProcessNode slow = fixture.engine()
                .launcher()
                .forUser(carol)
                .submit(TestProcesses.WaitSlow.DEFINITION, Inputs.of(X, new IntData(60_000)));
        fixture.engine().control().forUser(dave).pause(slow.id());
        fixture.engine().control().forUser(dave).play(slow.id());
        fixture.engine().control().forUser(carol).kill(slow.id());
        Waits.until(
                Duration.ofSeconds(30),
                slow.describe() + " to be killed",
                () -> "killed".equals(((ProcessNode) fixture.engine().graph().load(slow.id())).processState()));
        List<String> report = new LogStore(fixture.engine().database())
                .forNode(slow.id()).stream().map(entry -> entry.message()).toList();
        assertTrue(report.contains("paused by dave@example.org"), report.toString());
        assertTrue(report.contains("played by dave@example.org"), report.toString());
        assertTrue(report.contains("killed by carol@example.org"), report.toString());
    }
}
