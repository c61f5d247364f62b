package dev.cairn.e2e.hosts;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.cairn.engine.Engine;

/**
 * Throughput of a batch of processes on a lab's workers, counted in the steady part of the
 * batch: from when the first eighth of its processes had ended to when seven eighths had (by the
 * database's clock at the end of each one's last step, {@code process_event.time}), so that
 * neither its start (workers taking their first tasks) nor its end (slots falling idle as the last
 * processes run) counts; and the CPU each part of the lab used meanwhile ({@link CpuMeter}). The
 * batch is watched by a cheap count four times a second, so that the watching costs the database
 * next to nothing.
 */
final class Throughput {

    /** Processes ended a second, and the cores each part kept busy, in the steady part of a batch. */
    record Result(double perSecond, Map<String, Double> cores) {}

    private Throughput() {}

    /**
     * Submits {@code count} naps of {@code meanMs} on average and returns the naps ended per second.
     * Their lengths are spread evenly from 0.6 to 1.4 times the mean, so that the slots do not all
     * start and end at once, in an order shuffled the same way for the same count: a batch's
     * lengths, and so its figure, do not depend on chance, which with batches of a few dozen naps
     * moved it by a fifth.
     */
    static Result naps(Lab lab, Ledger ledger, int count, long meanMs) {
        List<Long> lengths = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double spread = count == 1 ? 0.5 : (double) i / (count - 1);
            lengths.add(meanMs <= 10 ? meanMs : Math.round(meanMs * (0.6 + 0.8 * spread)));
        }
        Collections.shuffle(lengths, new Random(count));
        lengths.forEach(ledger::nap);
        return measure(lab, ledger, count);
    }

    /** Submits what {@code ledger} holds beyond what it submitted, {@code processes} launched processes, and measures. */
    static Result measure(Lab lab, Ledger ledger, long processes) {
        return measure(lab, lab.engine(), ledger, processes);
    }

    /** {@link #measure(Lab, Ledger, long)}, launching with {@code engine} (on another broker than the lab's). */
    static Result measure(Lab lab, Engine engine, Ledger ledger, long processes) {
        CpuMeter cpu = new CpuMeter(lab);
        long lastEvent = Ledger.quietCount(lab.db(), "SELECT coalesce(max(id), 0) FROM process_event");
        String ends =
                "FROM process_event WHERE id > " + lastEvent + " AND to_state IN ('finished', 'excepted', 'killed')";
        List<CpuMeter.Reading> readings = new ArrayList<>();
        readings.add(cpu.read());
        ledger.submit(engine);
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        long done;
        // a cheap look now and then: the ends' times are the database's, read afterwards
        while ((done = Ledger.quietCount(lab.db(), "SELECT count(*) " + ends)) < processes) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + done + " of " + processes + " processes ended within 5 minutes; "
                        + Ledger.status(lab.db()) + "\n" + lab.workerLogs());
            }
            HostProcess.sleep(Duration.ofMillis(250));
            readings.add(cpu.read());
        }
        List<Long> times = endTimes(lab, ends);
        int first = (int) Math.max(1, processes / 8);
        int last = (int) (processes - processes / 8);
        long from = times.get(first - 1);
        long to = times.get(last - 1);
        if (to <= from) {
            throw new AssertionError("the batch of " + processes + " ended at once: too small to measure");
        }
        CpuMeter.Reading a =
                readings.stream().filter(r -> r.millis() >= from).findFirst().orElse(readings.getFirst());
        CpuMeter.Reading b = readings.reversed().stream()
                .filter(r -> r.millis() <= to)
                .findFirst()
                .orElse(readings.getLast());
        Map<String, Double> cores =
                b.nanos() > a.nanos() ? CpuMeter.cores(a, b) : CpuMeter.cores(readings.getFirst(), readings.getLast());
        return new Result((last - first) * 1000.0 / (to - from), cores);
    }

    /** The times the processes ended, in milliseconds since the epoch, earliest first. */
    private static List<Long> endTimes(Lab lab, String ends) {
        try (Connection c = lab.db().connect();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT (extract(epoch FROM time) * 1000)::bigint " + ends + " ORDER BY time")) {
            List<Long> times = new ArrayList<>();
            while (rs.next()) {
                times.add(rs.getLong(1));
            }
            return times;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the processes' ends: " + e.getMessage(), e);
        }
    }
}
