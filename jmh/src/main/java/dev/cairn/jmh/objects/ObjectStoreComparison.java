package dev.cairn.jmh.objects;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntFunction;

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.S3Location;
import dev.cairn.storage.objects.ValidationReport;

/**
 * Cairn's side of {@code jmh/compare-objectstore.sh}: the phases that {@code jmh/objects-peer/phases.py}
 * times for disk-objectstore, on the same workload, each timed once, printed as
 * {@code phase seconds} lines. Before each phase: a GC and a {@code sync}, as the peer does; contents are
 * checked after each read phase, outside the timing.
 *
 * <p>The phase {@code subset_reads} measures the cost per object of reading a random subset of the keys
 * (as an export does) against reading all of them. It prints {@code phase seconds objects ratio} lines:
 * {@code full_read} (every key, one call), {@code full_chunked_read} (every key, ten calls of a random
 * tenth), and for each fraction of {@code --fractions}, {@code subset_read_<pct>} (a random subset in one
 * call) and {@code subset_chunked_read_<pct>} (the same subset in ten calls). Each is timed {@code --reps}
 * times with a consumer that keeps nothing, after a GC, a {@code sync} and an untimed read of 16 keys;
 * {@code seconds} is the median, {@code objects} the mean count
 * asked for, {@code ratio} the median over the repetitions of its cost per object over the full read's in
 * the same repetition. The subsets are drawn by {@link Subsets}, as the peer's script draws them.
 *
 * <p>With {@code --s3 ENDPOINT BUCKET} the containers are in that bucket of an S3 server (with
 * {@link ContainerConfig#bucketDefaults()}, credentials from {@code AWS_ACCESS_KEY_ID} and
 * {@code AWS_SECRET_ACCESS_KEY}), each under a prefix of its own, instead of folders.
 *
 * <pre>java -cp benchmarks.jar dev.cairn.jmh.objects.ObjectStoreComparison WORKLOAD_FILE WORK_DIR [PHASES] [--no-pack-sync]
 *     [--fractions 0.01,0.1,0.5] [--reps 5] [--s3 ENDPOINT BUCKET]</pre>
 */
public final class ObjectStoreComparison {

    private final List<byte[]> contents;
    private final Path work;
    private final boolean syncPacks;
    private final Map<String, Double> results = new LinkedHashMap<>();
    private List<ObjectKey> keys;
    private boolean quiet;
    private List<Double> fractions = List.of(0.01, 0.1, 0.5);
    private int reps = 5;
    /** The bucket the containers are in, {@code ENDPOINT BUCKET}; null: folders. */
    private String[] s3;

    private ObjectStoreComparison(List<byte[]> contents, Path work, boolean syncPacks) {
        this.contents = contents;
        this.work = work;
        this.syncPacks = syncPacks;
    }

    /** Every phase this runner knows, in the order it runs them. */
    static final List<String> PHASES = List.of(
            "loose_write",
            "pack_all_loose",
            "clean_storage",
            "pack_write",
            "bulk_read",
            "single_reads",
            "chunked_read",
            "subset_reads",
            "validate",
            "pack_write_compressed",
            "bulk_read_compressed",
            "single_reads_compressed",
            "chunked_read_compressed",
            "validate_compressed",
            "pack_write_compressed_zlib");

    private Set<String> wanted = Set.copyOf(PHASES);

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ObjectStoreComparison WORKLOAD_FILE WORK_DIR [phase,phase,...|all]"
                    + " [--no-pack-sync] [--no-warmup] [--fractions F,F,...] [--reps R]\nphases: " + PHASES);
            System.exit(2);
        }
        List<String> flags = Arrays.asList(args);
        boolean sync = !flags.contains("--no-pack-sync");
        String phases = args.length > 2 && !args[2].startsWith("--") ? args[2] : "all";
        Set<String> wanted = phases.equals("all") ? Set.copyOf(PHASES) : Set.of(phases.split(","));
        for (String w : wanted) {
            if (!PHASES.contains(w)) {
                throw new IllegalArgumentException("unknown phase '" + w + "'; phases are " + PHASES);
            }
        }
        List<Double> fractions = List.of(0.01, 0.1, 0.5);
        int reps = 5;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--fractions")) {
                fractions = Arrays.stream(args[i + 1].split(","))
                        .map(Double::valueOf)
                        .toList();
            } else if (args[i].equals("--reps")) {
                reps = Integer.parseInt(args[i + 1]);
            }
        }
        String[] s3 = null;
        int at = flags.indexOf("--s3");
        if (at >= 0) {
            s3 = new String[] {args[at + 1], args[at + 2]};
        }
        for (double f : fractions) {
            if (!(f > 0 && f <= 1)) {
                throw new IllegalArgumentException("a fraction is in (0, 1], not " + f);
            }
        }
        List<byte[]> contents = ObjectWorkload.read(Path.of(args[0]));
        if (!flags.contains("--no-warmup")) {
            // A server runs warm: compile the hot paths on a fifth of the workload first, untimed and unprinted.
            ObjectStoreComparison warm =
                    new ObjectStoreComparison(contents.subList(0, contents.size() / 5), Path.of(args[1]), sync);
            warm.quiet = true;
            warm.wanted = wanted;
            warm.fractions = fractions;
            warm.reps = Math.min(reps, 2);
            warm.s3 = s3;
            warm.run();
        }
        ObjectStoreComparison c = new ObjectStoreComparison(contents, Path.of(args[1]), sync);
        c.wanted = wanted;
        c.fractions = fractions;
        c.reps = Math.max(1, reps);
        c.s3 = s3;
        c.run();
    }

    private boolean any(String... phases) {
        for (String p : phases) {
            if (wanted.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private void run() throws IOException, InterruptedException {
        BenchmarkDirs.delete(work);
        Files.createDirectories(work);
        ContainerConfig config =
                (s3 == null ? ContainerConfig.defaults() : ContainerConfig.bucketDefaults()).withSyncPacks(syncPacks);
        if (any("loose_write", "pack_all_loose", "clean_storage")) {
            try (Container a = init("A", config)) {
                time("loose_write", () -> {
                    List<ObjectKey> k = new ArrayList<>(contents.size());
                    for (byte[] b : contents) {
                        k.add(a.put(b));
                    }
                    keys = k;
                });
                if (any("pack_all_loose", "clean_storage")) {
                    time("pack_all_loose", () -> a.packAllLoose(Compression.NONE));
                    time("clean_storage", () -> a.cleanStorage(false));
                    checkAll(a);
                }
            }
        }
        if (any("pack_write", "bulk_read", "single_reads", "chunked_read", "subset_reads", "validate")) {
            try (Container b = init("B", config)) {
                time("pack_write", () -> keys = b.putAllToPacks(contents, Compression.NONE));
                readPhases(b, "");
                if (wanted.contains("validate")) {
                    time("validate", () -> requireValid(b.validate()));
                }
            }
        }
        if (any(
                "pack_write_compressed",
                "bulk_read_compressed",
                "single_reads_compressed",
                "chunked_read_compressed",
                "validate_compressed")) {
            try (Container z = init("C", config)) {
                time("pack_write_compressed", () -> keys = z.putAllToPacks(contents, Compression.ZSTD));
                readPhases(z, "_compressed");
                if (wanted.contains("validate_compressed")) {
                    time("validate_compressed", () -> requireValid(z.validate()));
                }
            }
        }
        if (wanted.contains("pack_write_compressed_zlib")) {
            try (Container z = init("Z", config)) {
                time("pack_write_compressed_zlib", () -> keys = z.putAllToPacks(contents, Compression.ZLIB));
                checkAll(z);
            }
        }
        BenchmarkDirs.delete(work);
    }

    /** A new container: a folder of the work folder, or a prefix of the bucket. */
    private Container init(String name, ContainerConfig config) throws IOException {
        if (s3 == null) {
            return Container.init(work.resolve(name), config);
        }
        String prefix = name + "-" + UUID.randomUUID() + "/";
        return Container.init(
                S3Location.of(s3[1], prefix, URI.create(s3[0]), "us-east-1", work.resolve("cache-" + name)), config);
    }

    private void readPhases(Container c, String suffix) throws IOException, InterruptedException {
        if (quiet) {
            warmCalls(c, keys);
        }
        List<Integer> bulkOrder = ObjectWorkload.shuffled(contents.size(), 1);
        Map<ObjectKey, byte[]> got = new HashMap<>();
        if (wanted.contains("bulk_read" + suffix)) {
            time("bulk_read" + suffix, () -> c.getAll(keysIn(bulkOrder), got::put));
            checkMap(got);
        }
        if (wanted.contains("single_reads" + suffix)) {
            singleReads(c, suffix);
        }
        if (wanted.contains("chunked_read" + suffix)) {
            chunkedRead(c, suffix);
        }
        if (suffix.isEmpty() && wanted.contains("subset_reads")) {
            subsetReads(c);
        }
    }

    /** One kind of read in {@code subset_reads}: the calls it makes in repetition {@code rep}. */
    private record SubsetRead(String name, IntFunction<List<List<Integer>>> calls) {}

    /**
     * Full reads and subset reads; see the class comment. Each repetition times every kind of read once,
     * the full read first, so each ratio compares timings taken close together: this machine's speed
     * drifts with what else runs on it.
     */
    private void subsetReads(Container c) throws IOException, InterruptedException {
        int n = contents.size();
        List<Integer> all = ObjectWorkload.shuffled(n, 1);
        List<List<Integer>> tenths = Subsets.chunks(ObjectWorkload.shuffled(n, 3), 10);
        List<SubsetRead> kinds = new ArrayList<>();
        kinds.add(new SubsetRead("full_read", rep -> List.of(all)));
        kinds.add(new SubsetRead("full_chunked_read", rep -> tenths));
        for (double f : fractions) {
            kinds.add(new SubsetRead("subset_read_" + percent(f), rep -> List.of(Subsets.draw(n, f, rep))));
            kinds.add(new SubsetRead(
                    "subset_chunked_read_" + percent(f), rep -> Subsets.chunks(Subsets.draw(n, f, rep), 10)));
        }
        double[][] seconds = new double[kinds.size()][reps];
        double[][] ratios = new double[kinds.size()][reps];
        long[] objects = new long[kinds.size()];
        for (int rep = 0; rep < reps; rep++) {
            double fullPerObject = 0;
            for (int k = 0; k < kinds.size(); k++) {
                List<List<Integer>> calls = kinds.get(k).calls().apply(rep);
                int count = calls.stream().mapToInt(List::size).sum();
                double t = readIn(c, calls);
                if (k == 0) {
                    fullPerObject = t / count;
                }
                seconds[k][rep] = t;
                ratios[k][rep] = t / count / fullPerObject;
                objects[k] += count;
            }
        }
        for (int k = 0; k < kinds.size(); k++) {
            if (!quiet) {
                System.out.printf(
                        "%s %.6f %d %.2f%n",
                        kinds.get(k).name(), median(seconds[k]), objects[k] / reps, median(ratios[k]));
                System.out.flush();
            }
        }
    }

    /**
     * A server answers many small bulk calls: this compiles the per-call path (the index refresh, the
     * planning) as well as the per-object one, which a few large calls alone would leave to the interpreter.
     */
    private static void warmCalls(Container c, List<ObjectKey> keys) throws IOException {
        Random r = new Random(4);
        for (int i = 0; i < 20_000; i++) {
            c.getAll(List.of(keys.get(r.nextInt(keys.size()))), (k, bytes) -> {});
        }
    }

    /** {@code 0.01} as {@code 1pct}, {@code 0.005} as {@code 0.5pct}. */
    static String percent(double fraction) {
        return BigDecimal.valueOf(fraction)
                        .movePointRight(2)
                        .stripTrailingZeros()
                        .toPlainString() + "pct";
    }

    private static double median(double[] values) {
        double[] t = values.clone();
        Arrays.sort(t);
        int n = t.length;
        return n % 2 == 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    }

    /**
     * Times one {@code getAll} per list of indices with a consumer that keeps nothing (an export writes each
     * object out and drops it), then checks what a second, untimed read of the same calls delivers. Between
     * the GC and the timing, an untimed read of 16 other keys: a full collection leaves the caches cold
     * for the code of the first call after it (a sizeable share of the read of a small subset), which a
     * running server does not see and which is no part of a subset's cost per object.
     */
    private double readIn(Container c, List<List<Integer>> calls) throws IOException, InterruptedException {
        List<List<ObjectKey>> keyCalls = new ArrayList<>(calls.size());
        for (List<Integer> call : calls) {
            keyCalls.add(keysIn(call));
        }
        long[] tally = new long[2];
        List<ObjectKey> settle =
                keysIn(ObjectWorkload.shuffled(contents.size(), 5).subList(0, Math.min(16, contents.size())));
        double seconds = measure(() -> c.getAll(settle, (k, bytes) -> {}), () -> {
            for (List<ObjectKey> call : keyCalls) {
                c.getAll(call, (k, bytes) -> {
                    tally[0]++;
                    tally[1] += bytes.length;
                });
            }
        });
        Map<ObjectKey, byte[]> got = new HashMap<>();
        long[] checked = new long[2];
        for (List<ObjectKey> call : keyCalls) {
            c.getAll(call, (k, bytes) -> {
                got.put(k, bytes);
                checked[0]++;
                checked[1] += bytes.length;
            });
        }
        if (tally[0] != checked[0] || tally[1] != checked[1]) {
            throw new IllegalStateException("the timed read delivered " + tally[0] + " objects of " + tally[1]
                    + " B, the checked one " + checked[0] + " of " + checked[1]);
        }
        for (List<Integer> call : calls) {
            for (int i : call) {
                if (!Arrays.equals(contents.get(i), got.get(keys.get(i)))) {
                    throw new IllegalStateException("object " + i + " (" + keys.get(i) + ") read back wrong");
                }
            }
        }
        return seconds;
    }

    private void singleReads(Container c, String suffix) throws IOException, InterruptedException {
        List<ObjectKey> singleOrder = keysIn(ObjectWorkload.shuffled(contents.size(), 2));
        byte[][] singles = new byte[singleOrder.size()][];
        time("single_reads" + suffix, () -> {
            for (int i = 0; i < singles.length; i++) {
                singles[i] = c.get(singleOrder.get(i));
            }
        });
        List<Integer> order = ObjectWorkload.shuffled(contents.size(), 2);
        for (int i = 0; i < singles.length; i++) {
            if (!Arrays.equals(singles[i], contents.get(order.get(i)))) {
                throw new IllegalStateException("single read " + i + " read back wrong");
            }
        }
    }

    private void chunkedRead(Container c, String suffix) throws IOException, InterruptedException {
        Map<ObjectKey, byte[]> got = new HashMap<>();
        List<ObjectKey> chunkOrder = keysIn(ObjectWorkload.shuffled(contents.size(), 3));
        time("chunked_read" + suffix, () -> {
            int chunk = (chunkOrder.size() + 9) / 10;
            for (int i = 0; i < chunkOrder.size(); i += chunk) {
                c.getAll(chunkOrder.subList(i, Math.min(chunkOrder.size(), i + chunk)), got::put);
            }
        });
        checkMap(got);
    }

    private List<ObjectKey> keysIn(List<Integer> order) {
        List<ObjectKey> out = new ArrayList<>(order.size());
        for (int i : order) {
            out.add(keys.get(i));
        }
        return out;
    }

    private void checkMap(Map<ObjectKey, byte[]> got) {
        for (int i = 0; i < contents.size(); i++) {
            if (!Arrays.equals(contents.get(i), got.get(keys.get(i)))) {
                throw new IllegalStateException("object " + i + " (" + keys.get(i) + ") read back wrong");
            }
        }
    }

    private void checkAll(Container c) throws IOException {
        checkMap(c.getAll(keys));
    }

    private static void requireValid(ValidationReport r) {
        if (!r.isValid()) {
            throw new IllegalStateException("validate found problems: " + r.problems());
        }
    }

    private interface Phase {
        void run() throws IOException;
    }

    /** Seconds one run of {@code phase} takes, after a GC and a {@code sync}. */
    private static double measure(Phase phase) throws IOException, InterruptedException {
        return measure(() -> {}, phase);
    }

    /** As {@link #measure(Phase)}, with {@code settle} run untimed after the GC and the {@code sync}. */
    private static double measure(Phase settle, Phase phase) throws IOException, InterruptedException {
        System.gc();
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        settle.run();
        long t0 = System.nanoTime();
        phase.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private void time(String name, Phase phase) throws IOException, InterruptedException {
        if (!wanted.contains(name)
                && !name.equals("pack_write")
                && !name.startsWith("pack_write_compressed")
                && !name.equals("loose_write")) {
            return;
        }
        double seconds = measure(phase);
        results.put(name, seconds);
        if (quiet || !wanted.contains(name)) {
            return;
        }
        System.out.printf("%s %.4f%n", name, seconds);
        System.out.flush();
    }
}
