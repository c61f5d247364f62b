package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Bulk write of {@code count} random objects (0–1000 B) straight to packs, against the raw cost of the
 * same bytes: one buffered {@code FileChannel} write of them all (plus one {@code force} when syncing) and
 * a JDK SHA-256 of each object on one thread.
 *
 * <p>Each measured call needs an empty container, so this is a single-shot benchmark: every iteration
 * is one call on a container made (and afterwards checked and deleted) outside the timing. Random bytes
 * do not compress, so ZLIB and ZSTD measure what trying costs; {@link CompressionBenchmark} measures
 * compressible text.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PackWriteBenchmark {

    /** The workload and the durability setting; shared by the measured method and the baseline. */
    @State(Scope.Benchmark)
    public static class Input {
        @Param("10000")
        int count;

        @Param({"true", "false"})
        boolean syncPacks;

        KnownObjects objects;
        Path dir;
        int iteration;

        @Setup(Level.Trial)
        public void generate() throws IOException {
            objects = KnownObjects.random(count, 1000, 42);
            dir = BenchmarkDirs.newDir("pack-write");
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            BenchmarkDirs.delete(dir);
        }

        Path next(String name) {
            return dir.resolve(name + "-" + iteration++);
        }
    }

    @State(Scope.Benchmark)
    public static class Store {
        @Param({"NONE", "ZLIB", "ZSTD"})
        Compression compression;

        Container container;
        Path root;
        List<ObjectKey> written;

        @Setup(Level.Iteration)
        public void open(Input in) throws IOException {
            root = in.next("container");
            container = Container.init(root, ContainerConfig.defaults().withSyncPacks(in.syncPacks));
            written = null;
        }

        @TearDown(Level.Iteration)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        in.objects.keys.equals(written),
                        "putAllToPacks returned other keys than the SHA-256 of the contents");
                ContainerStats s = container.stats();
                KnownObjects.check(
                        s.packedObjects() == in.objects.distinctCount() && s.looseObjects() == 0,
                        "expected " + in.objects.distinctCount() + " packed objects, found " + s);
                KnownObjects.check(
                        s.compressedObjects() == 0,
                        "random bytes do not shrink, yet " + s.compressedObjects() + " were stored compressed");
                in.objects.checkAll(container.getAll(in.objects.distinctKeys), "getAll after putAllToPacks");
            } finally {
                container.close();
                BenchmarkDirs.delete(root);
            }
        }
    }

    /** A fresh file for each baseline call. */
    @State(Scope.Benchmark)
    public static class RawFile {
        Path file;
        byte[][] digests;

        @Setup(Level.Iteration)
        public void create(Input in) {
            file = in.next("raw");
            digests = null;
        }

        @TearDown(Level.Iteration)
        public void check(Input in) throws IOException {
            try {
                long expected =
                        in.objects.contents.stream().mapToLong(b -> b.length).sum();
                KnownObjects.check(
                        Files.size(file) == expected,
                        "the raw file has " + Files.size(file) + " bytes instead of " + expected);
                for (int i = 0; i < digests.length; i++) {
                    KnownObjects.check(
                            ObjectKey.ofDigest(digests[i]).equals(in.objects.keys.get(i)),
                            "baseline digest " + i + " is wrong");
                }
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    @Benchmark
    public List<ObjectKey> putAllToPacks(Input in, Store s) throws IOException {
        s.written = s.container.putAllToPacks(in.objects.contents, s.compression);
        return s.written;
    }

    /** What the same bytes cost the hardware: hash each, append all through a 1 MiB buffer, sync once. */
    @Benchmark
    public byte[][] baselineRawWriteAndHash(Input in, RawFile f) throws IOException {
        List<byte[]> contents = in.objects.contents;
        byte[][] digests = new byte[contents.size()][];
        MessageDigest sha = KnownObjects.sha256();
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        try (FileChannel ch = FileChannel.open(f.file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < digests.length; i++) {
                byte[] b = contents.get(i);
                digests[i] = sha.digest(b);
                if (b.length > buffer.remaining()) {
                    drain(ch, buffer);
                }
                buffer.put(b);
            }
            drain(ch, buffer);
            if (in.syncPacks) {
                ch.force(false);
            }
        }
        f.digests = digests;
        return digests;
    }

    private static void drain(FileChannel ch, ByteBuffer buffer) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            ch.write(buffer);
        }
        buffer.clear();
    }
}
