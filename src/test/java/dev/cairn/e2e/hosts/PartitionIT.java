package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.graph.InstalledCode;

/**
 * A worker host cut off from the broker, then from the database, each time for longer than the
 * timeouts that let the other side give it up (a 5 s AMQP heartbeat, a 10 s dead-connection
 * timeout), then reconnected, while work chains of naps and calculation jobs run: nothing is lost,
 * nothing runs twice, and the host takes work again by itself, no operator doing anything.
 */
@ManyHostsTest
class PartitionIT {

    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    static final Duration DEAD_CONNECTION = Duration.ofSeconds(10);
    /** How long each cut lasts at least: past both timeouts, and past the side that gave the host up. */
    static final Duration PARTITION = Duration.ofSeconds(18);

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3)
            .loginNode()
            .worker("cairn.broker.heartbeat", HEARTBEAT.toSeconds() + "s")
            .worker("cairn.database.dead-connection-timeout", DEAD_CONNECTION.toSeconds() + "s")
            .build();

    @Test
    void aHostCutOffFromTheBrokerThenTheDatabaseRejoinsAndNothingIsLostOrDoubled() throws Exception {
        InstalledCode bash = lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep 2");
        lab.startWorkers(lab.workerHosts());
        Host victim = lab.workerHosts().get(1);
        Ledger ledger = new Ledger().code();
        try (Observer observer = Observer.of(lab)) {
            work(ledger, bash, 60);
            ledger.awaitTerminated(lab.db(), ledger.rows() / 5, Duration.ofMinutes(2), lab::workerLogs);

            long cut = System.nanoTime();
            victim.partitionFrom(lab.services(), lab.brokerAddress());
            long dropped = await(() -> observer.taskConsumers() == 2, "the broker to drop the cut-off worker");
            sleepUntil(cut + PARTITION.toNanos());
            victim.heal();
            long healed = System.nanoTime();
            long rejoined = await(() -> observer.taskConsumers() == 3, "the worker to consume again");
            System.out.printf(
                    Locale.ROOT,
                    "PartitionIT: %s cut off from the broker for %d s: dropped after %.1f s, consuming again %.1f s"
                            + " after the link came back%n",
                    victim.name(),
                    PARTITION.toSeconds(),
                    (dropped - cut) / 1e9,
                    (rejoined - healed) / 1e9);

            work(ledger, bash, 40);
            cut = System.nanoTime();
            victim.partitionFrom(lab.services(), lab.services().address());
            long gone = await(() -> observer.sessionsFrom(victim) == 0, "the database to end the worker's sessions");
            sleepUntil(cut + PARTITION.toNanos());
            victim.heal();
            healed = System.nanoTime();
            work(ledger, bash, 40);
            long working = await(() -> !quietLockedBy(observer, victim).isEmpty(), "the worker to run steps again");
            System.out.printf(
                    Locale.ROOT,
                    "PartitionIT: %s cut off from the database for %d s: its sessions ended after %.1f s, it ran"
                            + " steps again %.1f s after the link came back%n",
                    victim.name(),
                    PARTITION.toSeconds(),
                    (gone - cut) / 1e9,
                    (working - healed) / 1e9);

            ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(3), lab::workerLogs);
            Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
            System.out.println("PartitionIT: " + tally);
            tally.assertNoneLostOrDoubled();
            ledger.assertExactlyOnce(lab.db());
            assertTrue(lab.workersOn(victim).size() == 1, "the cut-off worker still runs");
        }
    }

    /** Relays of 2 naps of 0.3 to 1 s, and a calculation job chain every fifth. */
    private static void work(Ledger ledger, InstalledCode bash, int chains) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < chains; i++) {
            if (i % 5 == 4) {
                ledger.addCalcJob(bash, i, 1);
            } else {
                ledger.relay(2, random.nextLong(300, 1000));
            }
        }
        ledger.submit(lab.engine());
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            HostProcess.sleep(Duration.ofNanos(left));
        }
    }

    private static Map<Long, Integer> quietLockedBy(Observer observer, Host host) {
        try {
            return observer.lockedBy(host);
        } catch (SQLException e) {
            return Map.of();
        }
    }

    private static long await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "waited 2 minutes for " + what + "; " + Ledger.status(lab.db()) + "\n" + lab.workerLogs());
            }
            HostProcess.sleep(Duration.ofMillis(100));
        }
        return System.nanoTime();
    }
}
