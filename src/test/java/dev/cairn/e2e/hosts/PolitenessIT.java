package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * A computer's limits hold for the whole cluster, not per worker: workers on three hosts run
 * calculation jobs on one login node whose computer allows 2 connections at once, 20 submissions a
 * minute and a poll of its scheduler every 2 s. What the login node itself saw (sshd's log of the
 * connections, the commands run, the jobs started) stays within them.
 */
@ManyHostsTest
class PolitenessIT {

    static final int MAX_CONNECTIONS = 2;
    static final int PER_MINUTE = 20;
    static final Duration POLL_INTERVAL = Duration.ofSeconds(2);
    /** The bucket's 20 at once, then 6 at its refill rate. */
    static final int JOBS = 26;

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().build();

    @Test
    void aComputersLimitsHoldAcrossHosts() throws Exception {
        InstalledCode bash = lab.clusterComputer(
                Map.of(
                        "max_connections", MAX_CONNECTIONS,
                        "submissions_per_minute", PER_MINUTE,
                        "minimum_job_poll_interval", POLL_INTERVAL.toSeconds()),
                "sleep 1");
        lab.startWorkers(lab.workerHosts());
        Ledger ledger = new Ledger().code();
        for (int i = 0; i < JOBS; i++) {
            ledger.addCalcJob(bash, i, 2);
        }
        ledger.submit(lab.engine());
        ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(4), lab::workerLogs);
        LoginNode login = lab.login();
        Ledger.Tally tally = ledger.tally(lab.db(), login.jobRuns());
        System.out.println("PolitenessIT: " + tally);
        tally.assertNoneLostOrDoubled();
        ledger.assertExactlyOnce(lab.db());

        List<Long> starts = login.jobStarts();
        double worstExcess = 0;
        for (int i = 0; i < starts.size(); i++) {
            for (int j = i; j < starts.size(); j++) {
                // a bucket of PER_MINUTE tokens, refilled evenly: at most PER_MINUTE + rate × span
                double allowed = PER_MINUTE + PER_MINUTE * (starts.get(j) - starts.get(i)) / 60_000.0;
                worstExcess = Math.max(worstExcess, (j - i + 1) - allowed);
            }
        }
        List<Long> polls = login.commands().stream()
                .filter(c -> c.text().contains("/proc/uptime"))
                .map(LoginNode.Command::millis)
                .sorted()
                .toList();
        long closestPolls = Long.MAX_VALUE;
        for (int i = 1; i < polls.size(); i++) {
            closestPolls = Math.min(closestPolls, polls.get(i) - polls.get(i - 1));
        }
        // read from sshd's log once: everything below is of what the login node saw by now
        List<SshdConnections.Connection> connections = login.connections();
        int peak = SshdConnections.peak(connections);
        long hosts = connections.stream()
                .map(SshdConnections.Connection::peer)
                .distinct()
                .count();
        // the bucket's first PER_MINUTE tokens go at once; after them, the rate it refills at
        double afterBurst = starts.size() > PER_MINUTE + 1
                ? (starts.size() - PER_MINUTE - 1) * 60_000.0 / (starts.getLast() - starts.get(PER_MINUTE))
                : 0;
        System.out.printf(
                Locale.ROOT,
                "PolitenessIT: %d jobs from workers on %d hosts: peak %d SSH connections at once (limit %d),"
                        + " %d logins in all; after the bucket's first %d submissions, %.1f a minute (limit %d a minute),"
                        + " %.1f over the bucket at worst; %d polls, the closest %d ms apart (interval %d ms)%n",
                JOBS,
                hosts,
                peak,
                MAX_CONNECTIONS,
                connections.size(),
                Math.min(PER_MINUTE, starts.size()),
                afterBurst,
                PER_MINUTE,
                worstExcess,
                polls.size(),
                closestPolls,
                POLL_INTERVAL.toMillis());
        assertEquals(3, hosts, "every host's worker used the computer");
        assertTrue(
                peak <= MAX_CONNECTIONS,
                () -> "the login node saw " + peak + " connections at once: " + connections
                        + "; sshd's lines of those it did not see end: "
                        + connections.stream()
                                .filter(c -> c.closed() == 0)
                                .map(login::linesOf)
                                .toList());
        // a job script starts a little after its submission was granted: one submission of slack
        assertTrue(worstExcess <= 1, "submissions beyond the bucket: " + worstExcess + " (starts " + starts + ")");
        assertTrue(polls.size() >= 2, "the scheduler was polled " + polls.size() + " times");
        assertTrue(closestPolls >= POLL_INTERVAL.toMillis() - 500, "two polls " + closestPolls + " ms apart: " + polls);
    }
}
