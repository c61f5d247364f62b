package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.graph.InstalledCode;

/**
 * A three-node RabbitMQ cluster (a host each) with a quorum task queue, workers on three hosts given
 * every node's address, work chains of naps and calculation jobs in flight: the node leading the
 * task queue killed with SIGKILL, then brought back; then the node a worker is connected to, then
 * brought back (one at a time: a quorum queue needs a majority of its nodes). Each failover's stall
 * is the longest time with no step committed, from the kill until every worker consumes again and a
 * step has committed since. The broadcast queues (each worker's exclusive, auto-delete queue of
 * control signals, and the tests' engine's subscription to state changes) come back on the nodes
 * left. Everything finishes exactly once: exact node and link counts, each job script run once.
 * Before that, the same batch of work chains on a single broker and on the cluster, for throughput.
 */
@ManyHostsTest
class BrokerFailoverIT {

    /** add_multiply chains of each throughput batch: the broker carries a task for each of their steps. */
    static final int CHAINS = 300;

    /** Naps of each throughput batch: a task for each, and a step that does little else. */
    static final int NAPS = 600;

    static final long NAP_MS = 10;

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(3).loginNode().brokerCluster().build();

    @Test
    void losingABrokerNodeLosesAndDoublesNothing() throws Exception {
        InstalledCode bash = lab.clusterComputer(Map.of("minimum_job_poll_interval", 1), "sleep 1");
        Ledger ledger = new Ledger().code();
        double[] single = throughputOnTheSingleBroker(ledger);
        List<WorkerNode> workers = lab.startWorkers(lab.workerHosts());
        double[] cluster = throughput(lab.engine(), ledger);
        figure(String.format(
                Locale.ROOT,
                "%d add_multiply chains: %.1f/s on a single broker (classic task queue), %.1f/s on the cluster"
                        + " (quorum): %.2f; %d naps of %d ms: %.1f/s, %.1f/s: %.2f",
                CHAINS,
                single[0],
                cluster[0],
                cluster[0] / single[0],
                NAPS,
                NAP_MS,
                single[1],
                cluster[1],
                cluster[1] / single[1]));

        RabbitCluster mq = lab.brokerCluster();
        String queue = lab.prefix() + ".tasks";
        AtomicLong finishedEvents = new AtomicLong();
        Subscription events =
                lab.engine().subscribe(EventFilter.into(ProcessState.FINISHED), e -> finishedEvents.incrementAndGet());
        try (events;
                Progress progress = Progress.watch(lab.db());
                Observer observer = Observer.of(lab)) {
            failover(ledger, bash, "the task queue's leader", mq.leaderOf(queue), progress, observer, workers.size());
            RabbitNode serving = mq.serving(lab.workerHosts()).values().stream()
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no worker is connected to the cluster"));
            failover(ledger, bash, "a worker's node", serving, progress, observer, workers.size());
            ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(3), lab::workerLogs);
            // a last batch, to be heard of by the subscription made before the failovers
            long before = finishedEvents.get();
            int last = warmUp(ledger);
            ledger.submit(lab.engine());
            ledger.awaitAllTerminated(lab.db(), Duration.ofMinutes(1), lab::workerLogs);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (finishedEvents.get() < before + last && System.nanoTime() < deadline) {
                HostProcess.sleep(Duration.ofMillis(100));
            }
            assertTrue(
                    finishedEvents.get() >= before + last,
                    "the tests' engine heard of " + (finishedEvents.get() - before) + " of the " + last
                            + " work chains of the last batch finishing: its subscription's queue did not come back");
        }
        Ledger.Tally tally = ledger.tally(lab.db(), lab.login().jobRuns());
        System.out.println("BrokerFailoverIT: " + tally);
        tally.assertNoneLostOrDoubled();
        ledger.assertExactlyOnce(lab.db());
    }

    private static void figure(String text) {
        System.out.println("BrokerFailoverIT: " + text);
    }

    /** Workers on every host with the single broker of the services host, {@link #throughput}, the workers stopped. */
    private static double[] throughputOnTheSingleBroker(Ledger ledger) {
        WorkerNode.Settings single = lab.workerSettings()
                .with("cairn.broker.uri", lab.rabbit().amqpUri())
                .with("cairn.broker.addresses", lab.brokerAddress())
                .with("cairn.broker.task-queue", "classic");
        try (Engine engine = lab.engine(lab.rabbit().relayedAmqpUri(), BrokerOptions.defaults())) {
            List<WorkerNode> workers = lab.startWorkers(lab.workerHosts(), single);
            double[] perSecond = throughput(engine, ledger);
            workers.forEach(WorkerNode::stop);
            return perSecond;
        }
    }

    /** A warm-up batch, then add_multiply chains and short naps launched with {@code engine}: each's processes a second. */
    private static double[] throughput(Engine engine, Ledger ledger) {
        Throughput.measure(lab, engine, ledger, warmUp(ledger));
        double chains = Throughput.measure(lab, engine, ledger, chains(ledger)).perSecond();
        for (int i = 0; i < NAPS; i++) {
            ledger.nap(NAP_MS);
        }
        return new double[] {
            chains, Throughput.measure(lab, engine, ledger, NAPS).perSecond()
        };
    }

    private static int warmUp(Ledger ledger) {
        for (int i = 0; i < CHAINS / 4; i++) {
            ledger.addMultiply(i, 1, 2);
        }
        return CHAINS / 4;
    }

    private static int chains(Ledger ledger) {
        for (int i = 0; i < CHAINS; i++) {
            ledger.addMultiply(i, 2, 3);
        }
        return CHAINS;
    }

    /**
     * Work in flight, {@code victim} killed; waits until every worker is connected to a node left
     * and consumes, and a step has committed since; checks the control queues came back; starts the
     * node again and waits until it is a member of the task queue again.
     */
    private void failover(
            Ledger ledger,
            InstalledCode bash,
            String what,
            RabbitNode victim,
            Progress progress,
            Observer observer,
            int workers) {
        submitWork(ledger, bash);
        // the kill comes once the workers are busy with the batch, most of it still to run
        ledger.awaitTerminated(lab.db(), Ledger.terminated(lab.db()) + 5, Duration.ofMinutes(2), lab::workerLogs);
        RabbitCluster mq = lab.brokerCluster();
        Map<Host, RabbitNode> servingBefore = mq.serving(lab.workerHosts());
        long servedBefore =
                servingBefore.values().stream().filter(n -> n == victim).count();
        long killed = System.nanoTime();
        victim.kill();
        long consuming = awaitConsuming(victim, observer, workers, killed);
        // on a slow machine the work in flight may all have ended by then: nothing left to commit
        boolean advanced = progress.awaitAdvanceAfter(consuming, Duration.ofMinutes(1));
        assertTrue(
                advanced || Ledger.terminated(lab.db()) == ledger.rows(),
                "no step committed within a minute after the workers consumed again, with work left; "
                        + Ledger.status(lab.db()) + "\n" + lab.workerLogs());
        long resumed = advanced ? progress.lastAdvance() : consuming;
        Duration stall = progress.longestGap(killed, resumed);
        Duration before = progress.longestGap(killed - (resumed - killed), killed);
        awaitControlQueues(workers);
        long restart = System.nanoTime();
        victim.run();
        mq.awaitAllOnline(lab.prefix() + ".tasks", Duration.ofMinutes(2));
        figure(String.format(
                Locale.ROOT,
                "%s (%s, serving %d of the %d workers: %s) killed: every worker consumed again after %.1f s; longest time"
                        + " with no step committed %.1f s (%.1f s in as long before the kill); the node was back in"
                        + " the queue %.1f s after its start",
                what,
                victim.nodeName(),
                servedBefore,
                workers,
                servingBefore.values(),
                (consuming - killed) / 1e9,
                stall.toMillis() / 1e3,
                before.toMillis() / 1e3,
                (System.nanoTime() - restart) / 1e9));
    }

    /** When every worker was connected to a node other than {@code victim} and the task queue had all its consumers. */
    private static long awaitConsuming(RabbitNode victim, Observer observer, int workers, long since) {
        RabbitCluster mq = lab.brokerCluster();
        long deadline = since + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            Map<Host, RabbitNode> serving = mq.serving(lab.workerHosts());
            boolean connected = serving.size() == lab.workerHosts().size() && !serving.containsValue(victim);
            // a consumer of the killed node still counts until the node is back (Raft: "suspected down")
            if (connected && observer.taskConsumers() >= workers) {
                return System.nanoTime();
            }
            HostProcess.sleep(Duration.ofMillis(100));
        }
        throw new AssertionError("the workers did not all consume again within 2 minutes of the kill of "
                + victim.nodeName() + ": the task queue has " + observer.taskConsumers() + " consumers of "
                + workers + "; the workers' nodes: " + mq.serving(lab.workerHosts()) + "\n" + lab.workerLogs());
    }

    /** Waits until each worker's queue of control signals is bound again (it was on the killed node, or not). */
    private static void awaitControlQueues(int workers) {
        String events = lab.prefix() + ".events";
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        long bound = 0;
        while (System.nanoTime() < deadline) {
            try {
                bound = lab.brokerCluster()
                        .ctl("list_bindings", "source_name", "routing_key")
                        .lines()
                        .map(String::strip)
                        .filter(l -> l.startsWith(events) && l.endsWith("control.*"))
                        .count();
            } catch (RuntimeException e) {
                bound = -1;
            }
            if (bound == workers) {
                return;
            }
            HostProcess.sleep(Duration.ofMillis(250));
        }
        assertEquals(workers, bound, "queues bound to the control signals, one a worker");
    }

    /** 40 work chains of naps and calculation jobs ({@link Ledger#napsAndJobs}). */
    private static void submitWork(Ledger ledger, InstalledCode bash) {
        ledger.napsAndJobs(bash, 40).submit(lab.engine());
    }
}
