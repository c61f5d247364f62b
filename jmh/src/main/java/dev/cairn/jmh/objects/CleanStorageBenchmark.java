package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.cairn.storage.objects.CleaningReport;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;

/**
 * {@code cleanStorage} of N packed loose objects of ~500 B, against the bare file system work it cannot
 * avoid: unlinking N synced files of the same size spread over 256 folders, by path, on as many threads
 * as the store uses. Each iteration starts from freshly written files, which is most of the run time.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class CleanStorageBenchmark {

    /** The store's thread count for file system work (Maintenance.IO_THREADS). */
    static final int THREADS = 32;

    @Param("10000")
    int objects;

    static byte[] template() {
        byte[] t = new byte[500];
        new Random(9).nextBytes(t);
        return t;
    }

    /** Runs {@code task(i)} for i in [0, n) on {@code threads} threads. */
    static void parallel(int n, int threads, IoTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        task.run(i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    interface IoTask {
        void run(int i) throws IOException;
    }

    @State(Scope.Benchmark)
    public static class Packed {
        Path dir;
        Container container;
        CleaningReport report;

        @Setup(Level.Iteration)
        public void writeAndPack(CleanStorageBenchmark b) throws Exception {
            dir = BenchmarkDirs.newDir("clean-storage");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
            byte[] template = template();
            parallel(b.objects, 8, i -> container.put(KnownObjects.numbered(template, i)));
            container.packAllLoose();
            KnownObjects.check(container.stats().looseObjects() == b.objects, "setup left the wrong loose count");
        }

        @TearDown(Level.Iteration)
        public void check(CleanStorageBenchmark b) throws IOException {
            try {
                KnownObjects.check(
                        report != null && report.looseDeleted() == b.objects,
                        "cleanStorage deleted " + (report == null ? "nothing" : report.looseDeleted()) + " of "
                                + b.objects);
                KnownObjects.check(container.stats().looseObjects() == 0, "loose objects left after cleaning");
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
                report = null;
            }
        }
    }

    @Benchmark
    public CleaningReport cleanStorage(Packed p) throws IOException {
        p.report = p.container.cleanStorage(false);
        return p.report;
    }

    @State(Scope.Benchmark)
    public static class RawFiles {
        Path dir;
        final List<Path> files = new ArrayList<>();

        @Setup(Level.Iteration)
        public void write(CleanStorageBenchmark b) throws Exception {
            dir = BenchmarkDirs.newDir("clean-storage-raw");
            for (int s = 0; s < 256; s++) {
                Files.createDirectory(dir.resolve("%02x".formatted(s)));
            }
            files.clear();
            for (int i = 0; i < b.objects; i++) {
                files.add(dir.resolve("%02x".formatted(i & 0xff)).resolve(Integer.toString(i)));
            }
            byte[] template = template();
            // synced as loose objects are, so each file owns an allocated block when it is unlinked
            parallel(b.objects, 8, i -> {
                try (FileChannel ch =
                        FileChannel.open(files.get(i), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(KnownObjects.numbered(template, i)));
                    ch.force(false);
                }
            });
        }

        @TearDown(Level.Iteration)
        public void check() throws IOException {
            try {
                for (Path f : files) {
                    KnownObjects.check(!Files.exists(f), "baseline left " + f);
                }
            } finally {
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public int baselineUnlink(RawFiles r) throws Exception {
        parallel(r.files.size(), THREADS, i -> Files.delete(r.files.get(i)));
        return r.files.size();
    }
}
