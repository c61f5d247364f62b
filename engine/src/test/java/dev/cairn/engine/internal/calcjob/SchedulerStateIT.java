package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.scheduler.JobInfo;
import dev.cairn.engine.scheduler.JobState;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.transport.TransportPool;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.ProcessNode;

/**
 * What the direct scheduler says of a waiting job is kept on its node by a worker's poller: the state,
 * the time of the check, rewritten unchanged only once it is stale, and each change of state as an event.
 */
class SchedulerStateIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker().withObjects();

    @TempDir
    static Path tmp;

    private static final Duration BOUND = Duration.ofSeconds(60);

    private static final int JOBS = 200;
    private static final int ROUNDS = 7;

    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        // the local transport's default poll interval: 0.1 s
        bash = EngineFixture.bashOnThisMachine(fixture.engine(), tmp.resolve("work"));
    }

    @Test
    void theSchedulerStateIsRecordedPerPollRefreshedWhenStaleAndChangesAreEvents() throws Exception {
        Path go = tmp.resolve("go");
        try (Worker worker = fixture.engine().startWorker(Worker.Settings.defaults(2))) {
            followOneJob(go);
        }
    }

    private static void followOneJob(Path go) throws Exception {
        ProcessNode node = fixture.engine()
                .launcher()
                .submit(
                        BASH_ADD,
                        bashAdd(
                                bash,
                                1,
                                2,
                                JobOptions.defaults().withText("while [ ! -e " + go + " ]; do sleep 0.05; done", "")));
        Waits.until(
                BOUND,
                "the job to be seen running",
                () -> "running".equals(job(node).attribute("scheduler_state")));
        OffsetDateTime first = lastCheck(job(node));
        assertEquals(1, schedulerEvents(node), "the change to running is one event");
        assertEquals(
                List.of(Arrays.asList(null, "running")),
                EngineFixture.schedulerMoves(fixture.engine(), node.id()),
                "from nothing recorded");
        Map<?, ?> running = (Map<?, ?>) job(node).attribute("last_job_info");
        assertEquals(job(node).attribute("job_id"), running.get("job_id"));
        assertEquals("running", running.get("job_state"));
        assertTrue(List.of("R", "S").contains(running.get("job_substate")), "the state in /proc/PID/stat: " + running);
        assertTrue(running.get("wallclock_time_seconds") instanceof Long, "the time it has run: " + running);

        Waits.until(
                BOUND,
                "the check time to be written again",
                () -> !lastCheck(job(node)).equals(first));
        Duration between = Duration.between(first, lastCheck(job(node)));
        Duration refresh = Duration.ofMillis(100).multipliedBy(JobPoller.REFRESH_INTERVALS);
        assertTrue(
                between.compareTo(refresh) >= 0,
                "an unchanged state is rewritten after " + refresh + " (6 polls of 0.1 s), not at every poll: "
                        + between);
        assertEquals(1, schedulerEvents(node), "a rewrite of the same state is no event");

        Files.createFile(go);
        Waits.until(BOUND, "the job to end", () -> job(node).isSealed());
        CalcJobNode done = job(node);
        assertEquals("finished", done.processState(), String.valueOf(done.exception()));
        assertEquals("done", done.attribute("scheduler_state"), "the scheduler no longer lists the job");
        assertTrue(lastCheck(done).isAfter(first));
        assertEquals(2, schedulerEvents(node), "running, then done");
        assertEquals(
                List.of(Arrays.asList(null, "running"), List.of("running", "done")),
                EngineFixture.schedulerMoves(fixture.engine(), node.id()),
                "each event says the scheduler states left and entered");
        Map<?, ?> ended = (Map<?, ?>) done.attribute("last_job_info");
        assertEquals(done.attribute("job_id"), ended.get("job_id"));
        assertEquals("done", ended.get("job_state"));
        // seen as a zombie not yet reaped, or gone
        assertTrue(
                "Z".equals(ended.get("job_substate"))
                        || "not in the scheduler's listing".equals(ended.get("annotation")),
                String.valueOf(ended));

        try (Connection c = fixture.db().connect()) {
            assertTrue(SchedulerStates.record(
                            c,
                            Map.of(node.id(), new JobInfo("1", JobState.QUEUED, "R", null, null, null, null, null)),
                            Duration.ZERO)
                    .isEmpty());
        }
        assertEquals(done.attributes(), job(node).attributes(), "a sealed node's attributes do not change");
    }

    private static CalcJobNode job(ProcessNode node) {
        return (CalcJobNode) fixture.engine().graph().load(node.id());
    }

    private static OffsetDateTime lastCheck(CalcJobNode node) {
        // ISO 8601 with its offset, as AiiDA writes it
        return OffsetDateTime.parse((String) node.attribute("scheduler_lastchecktime"));
    }

    /** The events of the process that left it in its state: here, changes of its job's scheduler state. */
    private static long schedulerEvents(ProcessNode node) throws Exception {
        return EngineFixture.count(
                fixture.db(),
                "SELECT count(*) FROM process_event WHERE process_id = " + node.id()
                        + " AND from_state = 'waiting' AND to_state = 'waiting'");
    }

    /**
     * The poll's cost with 200 jobs waiting, and what it writes: nothing when every state is as recorded
     * and fresh; every node, in one statement, when all are stale or all changed (then 200 events too).
     * The median of each is printed, with that of the recording statement alone, timed in turn with the
     * polls: the poll without it is what a poll cost before states were recorded.
     */
    @Test
    void aPollOf200JobsWritesOnlyTheStatesThatChangedOrAreStale() throws Exception {
        long computer = EngineFixture.localComputer(
                fixture.engine(), "many", "core.direct", tmp.resolve("many"), Map.of("minimum_job_poll_interval", 10));
        List<CalcJobNode> nodes = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            nodes.add(new CalcJobNode(BASH_ADD.entryPoint()));
        }
        fixture.engine().graph().storeAll(nodes);
        Long[] ids = nodes.stream().map(CalcJobNode::id).toArray(Long[]::new);
        List<Process> jobs = new ArrayList<>();
        try (Connection c = fixture.db().connect();
                TransportPool transports = new TransportPool()) {
            for (long id : ids) {
                Process job = new ProcessBuilder("sleep", "600").start();
                jobs.add(job);
                execute(
                        c,
                        "INSERT INTO process (node_id, entry_point, state, runnable) VALUES (" + id
                                + ", 'test.bash_add', 'waiting', false)");
                execute(
                        c,
                        "INSERT INTO job_watch (node_id, computer_id, job_id) VALUES (" + id + ", " + computer + ", '"
                                + job.pid() + "')");
            }
            JobPoller poller = new JobPoller(
                    fixture.engine().database(),
                    fixture.engine().graph(),
                    new ProcessStates(),
                    new ComputerAccess(transports, fixture.engine().database()));
            String due = "UPDATE computer_activity SET next_poll = clock_timestamp() WHERE computer_id = " + computer;
            String ofJobs = " WHERE id = ANY('{"
                    + String.join(",", Stream.of(ids).map(String::valueOf).toList()) + "}')";
            poller.pollOnce();
            String checked = "SELECT count(DISTINCT attributes ->> 'scheduler_lastchecktime') FROM node" + ofJobs
                    + " AND attributes ->> 'scheduler_state' = 'running'";
            assertEquals(1, EngineFixture.count(fixture.db(), checked), "all recorded running, at the poll's time");
            assertEquals(
                    JOBS,
                    EngineFixture.count(
                            fixture.db(),
                            "SELECT count(*) FROM node" + ofJobs
                                    + " AND attributes -> 'last_job_info' ->> 'job_state' = 'running'"
                                    + " AND attributes -> 'last_job_info' ->> 'job_id'"
                                    + " = (SELECT job_id FROM job_watch w WHERE w.node_id = node.id)"),
                    "with what the listing said of each job, its own, in the same statement");
            String first = text(c, "SELECT attributes ->> 'scheduler_lastchecktime' FROM node" + ofJobs + " LIMIT 1");
            long events = EngineFixture.count(fixture.db(), "SELECT count(*) FROM process_event");

            Map<Long, JobInfo> running = new HashMap<>();
            for (int i = 0; i < ids.length; i++) {
                String pid = String.valueOf(jobs.get(i).pid());
                running.put(ids[i], new JobInfo(pid, JobState.RUNNING, "S", null, 3L, null, null, null));
            }
            Timed unchanged = timed(poller, c, running, due);
            assertEquals(
                    first,
                    text(c, "SELECT max(attributes ->> 'scheduler_lastchecktime') FROM node" + ofJobs),
                    "fresh unchanged states are not written");
            Timed stale = timed(
                    poller,
                    c,
                    running,
                    due + "; UPDATE node SET attributes = attributes"
                            + " || '{\"scheduler_lastchecktime\": \"2000-01-01T00:00:00+00:00\"}'" + ofJobs);
            assertEquals(1, EngineFixture.count(fixture.db(), checked), "stale states are written again");
            assertEquals(
                    events, EngineFixture.count(fixture.db(), "SELECT count(*) FROM process_event"), "with no event");
            Timed changed = timed(
                    poller,
                    c,
                    running,
                    due + "; UPDATE node SET attributes = attributes || '{\"scheduler_state\": \"queued\"}'" + ofJobs);
            assertEquals(1, EngineFixture.count(fixture.db(), checked), "changed states are written");
            assertEquals(
                    events + 2L * JOBS * ROUNDS,
                    EngineFixture.count(fixture.db(), "SELECT count(*) FROM process_event"),
                    "an event per change");
            System.out.printf(
                    "a poll of %d waiting jobs, median of %d: unchanged %s; all stale %s; all changed %s%n",
                    JOBS, ROUNDS, unchanged, stale, changed);
        } finally {
            jobs.forEach(Process::destroy);
        }
    }

    /** A poll's median time, and that of its statement recording the states (each timed after {@code before}). */
    private record Timed(double poll, double record) {
        @Override
        public String toString() {
            return String.format(
                    "%.1f ms, of which %.1f ms recording: %.2f times the poll without it",
                    poll, record, poll / (poll - record));
        }
    }

    private static Timed timed(JobPoller poller, Connection c, Map<Long, JobInfo> states, String before)
            throws Exception {
        double[] polls = new double[ROUNDS];
        double[] records = new double[ROUNDS];
        Duration refresh = Duration.ofSeconds(10).multipliedBy(JobPoller.REFRESH_INTERVALS);
        for (int i = 0; i < ROUNDS; i++) {
            execute(c, before);
            long start = System.nanoTime();
            SchedulerStates.record(c, states, refresh);
            records[i] = (System.nanoTime() - start) / 1e6;
            execute(c, before);
            start = System.nanoTime();
            poller.pollOnce();
            polls[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(polls);
        Arrays.sort(records);
        return new Timed(polls[ROUNDS / 2], records[ROUNDS / 2]);
    }

    private static void execute(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String text(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
