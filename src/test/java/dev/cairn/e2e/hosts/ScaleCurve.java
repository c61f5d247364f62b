package dev.cairn.e2e.hosts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scale curve: throughput against the number of worker hosts (4, 3, 2, 1; 4 slots each) for
 * three workloads, with the cores each part of the lab kept busy meanwhile, printed as lines
 * {@code ScaleCurve: …} and a Markdown table. Not a test of the suite (its name does not end in
 * IT): {@code jmh/scale-hosts.sh} runs it ({@code -Dit.test=ScaleCurve}), and
 * {@link ScaleOutIT} holds the waiting workload to its bound in every build.
 * <ul>
 * <li>{@code naps}: calculations that wait 0.6 to 1.4 s holding their slot (as a step that waits
 * on a slow scheduler or file system does); ideal: slots ÷ mean nap.
 * <li>{@code spin}: calculations that keep a core busy (5,000 SHA-256 digests of 4 KiB, about 20 ms).
 * <li>{@code add_multiply}: the examples' work chain of two calcfunctions, whose cost is the
 * engine's own (the step's transaction: nodes, links, checkpoint), so the database's too.
 * </ul>
 * The workers run with the JIT's full tiers (the tests' workers stop at C1 to start sooner).
 */
class ScaleCurve {

    static final int HOSTS = 4;
    static final int SLOTS = 4;

    @RegisterExtension
    static final Lab lab = Lab.withWorkerHosts(HOSTS)
            .worker("cairn.worker.slots", Integer.toString(SLOTS))
            .build();

    private final List<String> table = new ArrayList<>();

    @Test
    void throughputAgainstWorkerHosts() {
        table.add("| workload | hosts | slots | processes/s | of the ideal / of linear | cores: workers | PostgreSQL"
                + " | RabbitMQ | machine |");
        table.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        curve("naps (1 s)", (ledger, hosts) -> naps(ledger, 6 * SLOTS * hosts), 1, SLOTS * 1.0);
        curve("spin (~20 ms of CPU)", (ledger, hosts) -> repeat(600, () -> ledger.spin(5000)), 1, 0);
        curve("add_multiply chains", (ledger, hosts) -> repeat(1500, () -> ledger.addMultiply(2, 3, 4)), 3, 0);
        System.out.println("ScaleCurve table:\n" + String.join("\n", table));
    }

    /**
     * Workers on all hosts, a warm-up batch, then the workload on 4, 3, 2 and 1 hosts (a worker
     * stopped each time); each launch makes {@code processesEach} processes, and a host would do
     * {@code idealPerHost} launches a second with no overhead (0: no such bound).
     */
    private void curve(String name, BiConsumer<Ledger, Integer> workload, int processesEach, double idealPerHost) {
        List<WorkerNode> workers = new ArrayList<>(lab.startWorkers(
                lab.workerHosts(), lab.workerSettings().withJvmOptions(List.of("-Xmx512m", "-XX:+UseSerialGC"))));
        Ledger ledger = new Ledger();
        workload.accept(ledger, HOSTS);
        Throughput.measure(lab, ledger, ledger.rows());
        double one = 0;
        List<String[]> rows = new ArrayList<>();
        for (int hosts = HOSTS; hosts >= 1; hosts--) {
            while (workers.size() > hosts) {
                workers.removeLast().stop();
            }
            long before = ledger.rows();
            workload.accept(ledger, hosts);
            Throughput.Result launches = Throughput.measure(lab, ledger, ledger.rows() - before);
            Throughput.Result r = new Throughput.Result(launches.perSecond() * processesEach, launches.cores());
            Map<String, Double> cores = r.cores();
            System.out.printf(
                    Locale.ROOT,
                    "ScaleCurve: %s, %d host(s): %.1f processes/s; cores: workers %.2f, PostgreSQL %.2f, RabbitMQ %.2f,"
                            + " machine %.2f%n",
                    name,
                    hosts,
                    r.perSecond(),
                    cores.get("workers"),
                    cores.get("postgres"),
                    cores.get("rabbitmq"),
                    cores.get("machine"));
            rows.add(new String[] {
                Integer.toString(hosts),
                String.format(Locale.ROOT, "%.1f", r.perSecond()),
                String.format(Locale.ROOT, "%.2f", cores.get("workers")),
                String.format(Locale.ROOT, "%.2f", cores.get("postgres")),
                String.format(Locale.ROOT, "%.2f", cores.get("rabbitmq")),
                String.format(Locale.ROOT, "%.2f", cores.get("machine")),
                Double.toString(r.perSecond())
            });
            if (hosts == 1) {
                one = r.perSecond();
            }
        }
        workers.forEach(WorkerNode::stop);
        for (String[] row : rows.reversed()) {
            int hosts = Integer.parseInt(row[0]);
            double perSecond = Double.parseDouble(row[6]);
            String ideal = idealPerHost > 0
                    ? String.format(Locale.ROOT, "%.2f", perSecond / (idealPerHost * processesEach * hosts))
                    : "–";
            table.add(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %s | %s / %.2f | %s | %s | %s | %s |",
                    name,
                    hosts,
                    hosts * SLOTS,
                    row[1],
                    ideal,
                    perSecond / (one * hosts),
                    row[2],
                    row[3],
                    row[4],
                    row[5]));
        }
    }

    private static void naps(Ledger ledger, int count) {
        for (int i = 0; i < count; i++) {
            ledger.nap(600 + (i * 397L) % 801);
        }
    }

    private static void repeat(int times, Runnable add) {
        for (int i = 0; i < times; i++) {
            add.run();
        }
    }
}
