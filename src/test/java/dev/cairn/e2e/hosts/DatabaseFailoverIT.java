package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * PostgreSQL's primary lost under work chains of naps and calculation jobs: the primary and every
 * backend killed with SIGKILL, its synchronous standby promoted ({@code pg_ctl promote}, the step a
 * failover manager takes), the workers on a multi-host URL ({@code targetServerType=primary}) find
 * it by themselves. Nothing committed is lost (the standby had every commit on disk before it was
 * acknowledged), nothing runs twice: exact node and link counts, each job script run once.
 * <p>
 * The jobs run for {@value #JOB_SECONDS} s, shorter than the failover: a step that submitted its job and
 * lost its transaction to the kill is tried again on the new primary after its job has ended, and
 * must find that it ran (the job's started file in its work directory) rather than submit it again.
 * <p>
 * Then the old primary rejoins as the new primary's synchronous standby by the manual procedure
 * ({@code pg_rewind}, {@code standby.signal} and {@code primary_conninfo}), and has the whole graph.
 */
@ManyHostsTest
class DatabaseFailoverIT {

    /** Shorter than the failover, so that a job whose step lost its transaction has ended when the step runs again. */
    static final int JOB_SECONDS = 1;

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().postgresStandby().build();

    @Test
    void losingThePrimaryToItsSynchronousStandbyLosesAndDoublesNothing() throws Exception {
        InstalledCode bash = lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep " + JOB_SECONDS);
        lab.startWorkers(lab.workerHosts());
        Ledger ledger = new Ledger().code();
        ledger.napsAndJobs(bash, 50).submit(lab.engine());
        ledger.awaitTerminated(lab.db(), ledger.rows() / 4, Duration.ofMinutes(2), lab::workerLogs);
        long before = Ledger.terminated(lab.db());
        PostgresNode primary = lab.postgres();
        PostgresNode standby = lab.postgresStandby();
        try (Progress progress = Progress.watch(lab.db())) {
            long killed = System.nanoTime();
            primary.killAll();
            standby.promote();
            long promoted = System.nanoTime();
            primary.redirectTestsTo(standby);
            assertTrue(
                    progress.awaitAdvanceAfter(promoted, Duration.ofMinutes(2)),
                    "no step committed within 2 minutes of the promotion; " + Ledger.status(lab.db()) + "\n"
                            + lab.workerLogs());
            long resumed = progress.lastAdvance();
            System.out.printf(
                    Locale.ROOT,
                    "DatabaseFailoverIT: %d processes (%d jobs), %d of %d launched ended at the kill; the standby"
                            + " took writes %.1f s after the primary's kill, the first step committed on it %.1f s"
                            + " after the kill%n",
                    ledger.processes(),
                    ledger.jobs(),
                    before,
                    ledger.rows(),
                    (promoted - killed) / 1e9,
                    (resumed - killed) / 1e9);
        }
        ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(3), lab::workerLogs);
        Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
        System.out.println("DatabaseFailoverIT: " + tally + "; steps tried again after submitting: " + takenJobs());
        tally.assertNoneLostOrDoubled();
        ledger.assertExactlyOnce(lab.db());

        long rejoining = System.nanoTime();
        primary.rejoinAsStandbyOf(standby);
        System.out.printf(
                Locale.ROOT,
                "DatabaseFailoverIT: the old primary rewound (pg_rewind) and a synchronous standby of the new one %.1f s"
                        + " after it began%n",
                (System.nanoTime() - rejoining) / 1e9);
        String graph = "SELECT count(*) || ' nodes, ' || (SELECT count(*) FROM link) || ' links' FROM node";
        String onPrimary = standby.sql(lab.db().name(), graph).strip();
        assertEquals(onPrimary, awaitReplayed(primary, graph, onPrimary), "the rejoined standby's graph");
    }

    /** What {@code sql} gives on {@code standby} once it gives {@code expected} (replayed), or after 30 s. */
    private static String awaitReplayed(PostgresNode standby, String sql, String expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String found;
        while (!(found = standby.sql(lab.db().name(), sql).strip()).equals(expected) && System.nanoTime() < deadline) {
            HostProcess.sleep(Duration.ofMillis(200));
        }
        return found;
    }

    /** What the submit steps that lost their transaction after submitting found when tried again, from their reports. */
    private static String takenJobs() {
        String reports = "SELECT count(*) FROM log WHERE level_name = 'REPORT' AND message LIKE 'An earlier attempt%";
        return Ledger.quietCount(lab.db(), reports + "the job, ended,%'") + " found their job ended, "
                + Ledger.quietCount(lab.db(), reports + "still queued or running%'") + " still running, "
                + Ledger.quietCount(lab.db(), reports + "the scheduler lost it%'") + " lost by the scheduler";
    }
}
