package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ValidationReport;

/**
 * Cairn's side of {@code jmh/compare-objectstore.sh}: the phases of the disk-objectstore peer benchmark
 * ({@code shared/peers/dos_bench.py}) on the same workload, each timed once, printed as
 * {@code phase seconds} lines. Before each phase: a GC and a {@code sync}, as the peer does; contents are
 * checked after each read phase, outside the timing.
 *
 * <pre>java -cp benchmarks.jar dev.cairn.jmh.objects.ObjectStoreComparison WORKLOAD_FILE WORK_DIR [PHASES] [--no-pack-sync]</pre>
 */
public final class ObjectStoreComparison {

    private final List<byte[]> contents;
    private final Path work;
    private final boolean syncPacks;
    private final Map<String, Double> results = new LinkedHashMap<>();
    private List<ObjectKey> keys;
    private boolean quiet;

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
                    + " [--no-pack-sync] [--no-warmup]\nphases: " + PHASES);
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
        List<byte[]> contents = Workload.read(Path.of(args[0]));
        if (!flags.contains("--no-warmup")) {
            // A server runs warm: compile the hot paths on a fifth of the workload first, untimed and unprinted.
            ObjectStoreComparison warm =
                    new ObjectStoreComparison(contents.subList(0, contents.size() / 5), Path.of(args[1]), sync);
            warm.quiet = true;
            warm.wanted = wanted;
            warm.run();
        }
        ObjectStoreComparison c = new ObjectStoreComparison(contents, Path.of(args[1]), sync);
        c.wanted = wanted;
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
        Scratch.delete(work);
        Files.createDirectories(work);
        ContainerConfig config = ContainerConfig.defaults().withSyncPacks(syncPacks);
        if (any("loose_write", "pack_all_loose", "clean_storage")) {
            try (Container a = Container.init(work.resolve("A"), config)) {
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
        if (any("pack_write", "bulk_read", "single_reads", "chunked_read", "validate")) {
            try (Container b = Container.init(work.resolve("B"), config)) {
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
            try (Container z = Container.init(work.resolve("C"), config)) {
                time("pack_write_compressed", () -> keys = z.putAllToPacks(contents, Compression.ZSTD));
                readPhases(z, "_compressed");
                if (wanted.contains("validate_compressed")) {
                    time("validate_compressed", () -> requireValid(z.validate()));
                }
            }
        }
        if (wanted.contains("pack_write_compressed_zlib")) {
            try (Container z = Container.init(work.resolve("Z"), config)) {
                time("pack_write_compressed_zlib", () -> keys = z.putAllToPacks(contents, Compression.ZLIB));
                checkAll(z);
            }
        }
        Scratch.delete(work);
    }

    private void readPhases(Container c, String suffix) throws IOException, InterruptedException {
        List<Integer> bulkOrder = Workload.shuffled(contents.size(), 1);
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
    }

    private void singleReads(Container c, String suffix) throws IOException, InterruptedException {
        List<ObjectKey> singleOrder = keysIn(Workload.shuffled(contents.size(), 2));
        byte[][] singles = new byte[singleOrder.size()][];
        time("single_reads" + suffix, () -> {
            for (int i = 0; i < singles.length; i++) {
                singles[i] = c.get(singleOrder.get(i));
            }
        });
        List<Integer> order = Workload.shuffled(contents.size(), 2);
        for (int i = 0; i < singles.length; i++) {
            if (!Arrays.equals(singles[i], contents.get(order.get(i)))) {
                throw new IllegalStateException("single read " + i + " read back wrong");
            }
        }
    }

    private void chunkedRead(Container c, String suffix) throws IOException, InterruptedException {
        Map<ObjectKey, byte[]> got = new HashMap<>();
        List<ObjectKey> chunkOrder = keysIn(Workload.shuffled(contents.size(), 3));
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

    private void time(String name, Phase phase) throws IOException, InterruptedException {
        if (!wanted.contains(name)
                && !name.equals("pack_write")
                && !name.startsWith("pack_write_compressed")
                && !name.equals("loose_write")) {
            return;
        }
        System.gc();
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        long t0 = System.nanoTime();
        phase.run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        results.put(name, seconds);
        if (quiet || !wanted.contains(name)) {
            return;
        }
        System.out.printf("%s %.4f%n", name, seconds);
        System.out.flush();
    }
}
