package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * Every worker restarted, one host at a time (SIGTERM: its running steps finish, the tasks it
 * held go back to the broker; then a new worker on the host), each time with {@value #CHAINS} work
 * chains of naps and calculation jobs more submitted just before: none is lost, none doubled, each
 * job script runs once.
 */
@ManyHostsTest
class RollingRestartIT {

    /** Work chains submitted before each restart: over a hundred processes are in flight at each. */
    static final int CHAINS = 60;

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().build();

    @Test
    void restartingEveryWorkerOneHostAtATimeLosesAndDoublesNothing() throws Exception {
        InstalledCode bash = lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep 1");
        List<WorkerNode> workers = new ArrayList<>(lab.startWorkers(lab.workerHosts()));
        Ledger ledger = new Ledger().code();
        List<String> restarts = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            // more work chains before each restart: every restart meets work in flight
            submit(ledger, bash, CHAINS);
            ledger.awaitTerminated(lab.db(), Ledger.terminated(lab.db()) + 20, Duration.ofMinutes(2), lab::workerLogs);
            WorkerNode old = workers.get(i);
            long inFlight = ledger.rows() - Ledger.terminated(lab.db());
            long start = System.nanoTime();
            int exit = old.stop();
            long stopped = System.nanoTime();
            assertEquals(
                    143,
                    exit,
                    "a worker stopped by SIGTERM exits with 143" + old.process().tail());
            WorkerNode fresh = lab.startWorkers(List.of(old.host())).getFirst();
            workers.set(i, fresh);
            restarts.add(String.format(
                    Locale.ROOT,
                    "%s (%d processes in flight: stopped in %.1f s, back in %.1f s)",
                    old.host().name(),
                    inFlight,
                    (stopped - start) / 1e9,
                    (System.nanoTime() - start) / 1e9));
            assertTrue(inFlight >= 50, "only " + inFlight + " processes were in flight at the restart of " + old);
        }
        ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(4), lab::workerLogs);
        Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
        System.out.println("RollingRestartIT: " + tally);
        tally.assertNoneLostOrDoubled();
        ledger.assertExactlyOnce(lab.db());
        System.out.println(
                "RollingRestartIT: " + ledger.roots() + " work chains (" + ledger.rows() + " processes launched, "
                        + ledger.processes() + " in all), workers restarted on " + String.join(", ", restarts));
    }

    /** Work chains of 2 naps of 0.3 to 0.9 s, and a calculation job chain every tenth. */
    private static void submit(Ledger ledger, InstalledCode bash, int chains) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < chains; i++) {
            if (i % 10 == 9) {
                ledger.addCalcJob(bash, i, 1);
            } else {
                ledger.relay(2, random.nextLong(300, 900));
            }
        }
        ledger.submit(lab.engine());
    }
}
