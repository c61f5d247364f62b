package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * PostgreSQL's primary lost under work chains of naps and calculation jobs, with pg_auto_failover
 * deciding and doing the failover ({@link AutoFailover}): every process of the primary's node killed
 * with SIGKILL, its keeper and PostgreSQL's postmaster and backends; the monitor finds it gone and
 * promotes the synchronous standby by itself; the workers' multi-host URL
 * ({@code targetServerType=primary}) finds it. Then the old primary rejoins as the new primary's
 * standby (its keeper run again rewinds it with {@code pg_rewind} and follows), and with a second batch
 * in flight the new primary is lost the same way: the rejoined node is promoted in its turn. Nothing
 * committed is lost and nothing runs twice: exact node and link counts, each job script run once.
 */
@ManyHostsTest
class AutoFailoverIT {

    private static final Duration FAILOVER = Duration.ofMinutes(2);

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().autoFailover().build();

    @Test
    void theMonitorPromotesTheStandbyAndTheOldPrimaryRejoinsLosingAndDoublingNothing() throws Exception {
        AutoFailover pg = lab.autoFailover();
        // jobs shorter than a failover, as DatabaseFailoverIT's
        InstalledCode bash =
                lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep " + DatabaseFailoverIT.JOB_SECONDS);
        lab.startWorkers(lab.workerHosts());
        Ledger ledger = new Ledger().code();
        ledger.napsAndJobs(bash, 40).submit(lab.engine());
        ledger.awaitTerminated(lab.db(), ledger.rows() / 4, Duration.ofMinutes(2), lab::workerLogs);
        AutoFailover.Node lost = failOver(pg, ledger, "first");

        long rejoining = System.nanoTime();
        pg.rejoin(lost);
        pg.awaitStates(Map.of(pg.other(lost).name(), "primary", lost.name(), "secondary"), FAILOVER);
        System.out.printf(
                Locale.ROOT,
                "AutoFailoverIT: %s rejoined: the synchronous standby of %s %.1f s after its keeper ran again%n",
                lost.name(),
                pg.other(lost).name(),
                (System.nanoTime() - rejoining) / 1e9);

        long before = Ledger.terminated(lab.db());
        ledger.napsAndJobs(bash, 20).submit(lab.engine());
        ledger.awaitTerminated(lab.db(), before + 10, Duration.ofMinutes(2), lab::workerLogs);
        assertEquals(
                pg.other(lost), failOver(pg, ledger, "second"), "the second failover lost the first's new primary");

        ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(3), () -> lab.workerLogs() + pg.report());
        Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
        System.out.println("AutoFailoverIT: " + tally);
        tally.assertNoneLostOrDoubled();
        ledger.assertExactlyOnce(lab.db());
    }

    /**
     * Loses the primary with its standby in sync, and waits until the standby the monitor promoted
     * takes writes and a step commits on it; prints the times. Returns the node lost.
     */
    private static AutoFailover.Node failOver(AutoFailover pg, Ledger ledger, String which) {
        AutoFailover.Node primary = pg.primary();
        AutoFailover.Node standby = pg.other(primary);
        // pg_auto_failover names the standby in synchronous_standby_names: "ANY 1 (…)", a quorum of one
        assertEquals(
                "quorum",
                primary.sql("postgres", "SELECT sync_state FROM pg_stat_replication")
                        .strip(),
                "the standby is synchronous before the kill" + pg.report());
        long launched = Ledger.terminated(lab.db());
        try (Progress progress = Progress.watch(lab.db())) {
            long killed = System.nanoTime();
            pg.kill(primary);
            pg.redirectTestsTo(standby);
            long writable = awaitWritable(pg, killed);
            assertTrue(
                    progress.awaitAdvanceAfter(writable, FAILOVER),
                    "no step committed within " + FAILOVER.toSeconds() + " s of the promotion; "
                            + Ledger.status(lab.db()) + "\n" + lab.workerLogs() + pg.report());
            System.out.printf(
                    Locale.ROOT,
                    "AutoFailoverIT: %s failover: %s killed at %s with %d of %d launched processes ended; the monitor"
                            + " promoted %s, which committed a write %.1f s after the kill; the first step committed on it"
                            + " %.1f s after the kill%n",
                    which,
                    primary.name(),
                    LocalTime.now(ZoneOffset.UTC).minusNanos(System.nanoTime() - killed),
                    launched,
                    ledger.rows(),
                    standby.name(),
                    (writable - killed) / 1e9,
                    (progress.lastAdvance() - killed) / 1e9);
            long killedMillis = System.currentTimeMillis() - (System.nanoTime() - killed) / 1_000_000;
            System.out.println(
                    "AutoFailoverIT: " + retriesSince(killedMillis) + "; the monitor's events:\n" + pg.events(8));
        }
        return primary;
    }

    /** The workers' retries of steps since {@code since} (epoch ms): how many, and the longest wait, from their logs. */
    private static String retriesSince(long since) {
        // the number as the log's MessageFormat wrote it: 1,600
        Pattern retry = Pattern.compile("retrying in ([\\d,.\u00a0\u202f]+) ms");
        List<Long> waits = lab.workers().stream()
                .flatMap(w -> w.process().lines().stream())
                .filter(l -> l.millis() >= since)
                .map(l -> retry.matcher(l.text()))
                .filter(Matcher::find)
                .map(m -> Long.parseLong(m.group(1).replaceAll("\\D", "")))
                .toList();
        return waits.size() + " step retries by the workers since the kill, the longest wait "
                + waits.stream().mapToLong(Long::longValue).max().orElse(0) + " ms";
    }

    /**
     * Tries a write on the standby every 50 ms until it commits one; returns when (nanoTime). A table
     * made and dropped: its catalog rows are written and committed as a step's rows are, waiting for
     * a synchronous standby while the promoted node still names one (pg_auto_failover's
     * {@code stop_replication}, until it is {@code wait_primary}), where taking a transaction id would not.
     */
    private static long awaitWritable(AutoFailover pg, long since) {
        long deadline = since + FAILOVER.toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection c = lab.db().connect();
                    Statement s = c.createStatement()) {
                s.setQueryTimeout((int) FAILOVER.toSeconds());
                s.execute("CREATE TEMPORARY TABLE failover_probe () ON COMMIT DROP");
                return System.nanoTime();
            } catch (SQLException inRecovery) {
                HostProcess.sleep(Duration.ofMillis(50));
            }
        }
        throw new AssertionError(
                "the standby took no write within " + FAILOVER.toSeconds() + " s of the kill" + pg.report());
    }
}
