package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * A worker host lost as a machine is lost: its link cut, then every process on it killed with
 * SIGKILL, while work chains of naps and calculation jobs on the cluster are in flight. The broker
 * and the database find out by their own timeouts (no connection was closed); the steps the host
 * held are taken over by the workers of the other hosts, and everything finishes exactly once:
 * exact node and link counts, each job script run once.
 */
@ManyHostsTest
class HostLossIT {

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().build();

    @Test
    void aLostHostsStepsAreTakenOverAndRunOnce() throws Exception {
        InstalledCode bash = lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep 2");
        lab.startWorkers(lab.workerHosts());
        Ledger ledger = new Ledger().code();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 30; i++) {
            ledger.relay(3, random.nextLong(800, 1600));
        }
        for (int i = 0; i < 12; i++) {
            ledger.addCalcJob(bash, i, 1);
        }
        try (Observer observer = Observer.of(lab)) {
            ledger.submit(lab.engine());
            ledger.awaitTerminated(lab.db(), ledger.rows() / 4, Duration.ofMinutes(2), lab::workerLogs);

            Host victim = lab.workerHosts().get(1);
            Map<Long, Integer> held = observer.lockedBy(victim);
            long lost = System.nanoTime();
            victim.cut();
            int killed = victim.killAll();

            long brokerNoticed = 0;
            long databaseNoticed = 0;
            long takenOver = 0;
            long deadline = lost + Duration.ofMinutes(3).toNanos();
            while ((brokerNoticed == 0 || databaseNoticed == 0 || takenOver == 0) && System.nanoTime() < deadline) {
                long now = System.nanoTime();
                if (brokerNoticed == 0 && observer.taskConsumers() == 2) {
                    brokerNoticed = now;
                }
                if (databaseNoticed == 0 && observer.sessionsFrom(victim) == 0) {
                    databaseNoticed = now;
                }
                if (takenOver == 0 && observer.stillWaiting(held) == 0) {
                    takenOver = now;
                }
                HostProcess.sleep(Duration.ofMillis(100));
            }
            System.out.printf(
                    Locale.ROOT,
                    "HostLossIT: %d processes (%d jobs); %s cut and %d processes killed while it held %d steps;"
                            + " the broker dropped its consumer after %s, the database its sessions after %s;"
                            + " its steps were all taken over after %s%n",
                    ledger.processes(),
                    ledger.jobs(),
                    victim.name(),
                    killed,
                    held.size(),
                    seconds(lost, brokerNoticed),
                    seconds(lost, databaseNoticed),
                    seconds(lost, takenOver));
            ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(3), lab::workerLogs);
            Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
            System.out.println("HostLossIT: " + tally);
            tally.assertNoneLostOrDoubled();
            ledger.assertExactlyOnce(lab.db());
            assertFalse(held.isEmpty(), "the lost host held no step: the kill proved nothing");
        }
    }

    private static String seconds(long from, long to) {
        return to == 0 ? "(never, within 3 minutes)" : String.format(Locale.ROOT, "%.1f s", (to - from) / 1e9);
    }
}
