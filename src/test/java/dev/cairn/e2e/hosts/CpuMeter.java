package dev.cairn.e2e.hosts;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the CPU goes while a lab works: the time the kernel counted for the processes of each part
 * (the workers' hosts, PostgreSQL, RabbitMQ: every process of theirs, and the children they waited
 * for), and for the whole machine, between two readings, in cores ({@code 1.0} is one core busy
 * all the time). From {@code /proc/PID/stat} and {@code /proc/stat}.
 */
final class CpuMeter {

    /** Clock ticks a second (USER_HZ), 100 on Linux for x86 and arm. */
    private static final double TICKS = 100;

    private final Lab lab;

    /** A reading: ticks by part, and the machine's busy and total ticks over all its CPUs. */
    record Reading(long nanos, long millis, Map<String, Long> parts, long machineBusy, long machineTotal) {}

    CpuMeter(Lab lab) {
        this.lab = lab;
    }

    Reading read() {
        Map<String, Long> parts = new LinkedHashMap<>();
        parts.put("workers", 0L);
        parts.put("postgres", 0L);
        parts.put("rabbitmq", 0L);
        for (Host host : lab.workerHosts()) {
            parts.merge("workers", ticks(host.pids(), null), Long::sum);
        }
        List<Long> services = lab.services().pids();
        parts.put("postgres", ticks(services, "postgres"));
        long rabbitmq = 0;
        for (Host host : lab.brokerHosts()) {
            rabbitmq += ticks(host.pids(), "rabbitmq");
        }
        parts.put("rabbitmq", rabbitmq);
        long[] machine = machine();
        return new Reading(System.nanoTime(), System.currentTimeMillis(), parts, machine[0], machine[1]);
    }

    /** Cores each part kept busy between {@code from} and {@code to}, and the whole machine ({@code machine}). */
    static Map<String, Double> cores(Reading from, Reading to) {
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        Map<String, Double> cores = new LinkedHashMap<>();
        from.parts().forEach((part, ticks) -> cores.put(part, (to.parts().get(part) - ticks) / TICKS / seconds));
        double share = (double) (to.machineBusy() - from.machineBusy()) / (to.machineTotal() - from.machineTotal());
        cores.put("machine", share * Runtime.getRuntime().availableProcessors());
        return cores;
    }

    /**
     * utime + stime + cutime + cstime of each process (those a parent waited for count in its
     * parent), of the processes whose command is PostgreSQL's ({@code postgres}) or RabbitMQ's (the
     * Erlang VM and its helpers), or of all when {@code which} is null.
     */
    private static long ticks(List<Long> pids, String which) {
        long sum = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), UTF_8);
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                boolean postgres = comm.equals("postgres");
                boolean rabbit = comm.startsWith("beam")
                        || comm.equals("epmd")
                        || comm.startsWith("erl_")
                        || comm.startsWith("inet_gethost")
                        || comm.equals("rabbitmq-server");
                if (which == null || (which.equals("postgres") && postgres) || (which.equals("rabbitmq") && rabbit)) {
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    // fields 14 to 17 of stat, counted from the state (field 3) at index 0
                    sum += Long.parseLong(f[11])
                            + Long.parseLong(f[12])
                            + Long.parseLong(f[13])
                            + Long.parseLong(f[14]);
                }
            } catch (IOException | RuntimeException gone) {
                // the process ended between the listing and the reading
            }
        }
        return sum;
    }

    private static long[] machine() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat"), UTF_8)
                    .getFirst()
                    .trim()
                    .split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle, iowait
            return new long[] {total - idle, total};
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/stat", e);
        }
    }
}
