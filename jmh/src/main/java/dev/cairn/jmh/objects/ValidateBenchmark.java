package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
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
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ValidationReport;

/**
 * {@code validate()} of a container of {@code count} packed objects, against the raw cost of its core:
 * read the same bytes from one file in 8 MiB blocks (the store's read block) and check the SHA-256 of
 * every object against its key.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ValidateBenchmark {

    private static final int BLOCK = 8 << 20;

    @State(Scope.Benchmark)
    public static class Input {
        @Param({"10000", "100000"})
        int count;

        KnownObjects objects;

        @Setup(Level.Trial)
        public void generate() {
            objects = KnownObjects.random(count, 1000, 3);
        }
    }

    @State(Scope.Benchmark)
    public static class Store {
        Path dir;
        Container container;
        ValidationReport last;

        @Setup(Level.Trial)
        public void fill(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("validate");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
            container.putAllToPacks(in.objects.contents, Compression.NONE);
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(last.isValid(), "validate found problems in a sound container: " + last.problems());
                KnownObjects.check(
                        last.objectsChecked() == in.objects.distinctCount(),
                        "validate checked " + last.objectsChecked() + " objects of " + in.objects.distinctCount());
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public ValidationReport validate(Store s) throws IOException {
        s.last = s.container.validate();
        return s.last;
    }

    @State(Scope.Benchmark)
    public static class RawFile {
        Path dir;
        FileChannel channel;
        KnownObjects.Layout layout;
        byte[][] expected;
        byte[] block = new byte[BLOCK];
        int lastMatches = -1;

        @Setup(Level.Trial)
        public void write(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("validate-raw");
            layout = in.objects.writeConcatenated(dir.resolve("raw"));
            channel = FileChannel.open(dir.resolve("raw"), StandardOpenOption.READ);
            expected = in.objects.distinctKeys.stream().map(ObjectKey::digest).toArray(byte[][]::new);
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        lastMatches == in.objects.distinctCount(),
                        "the baseline matched " + lastMatches + " digests of " + in.objects.distinctCount());
            } finally {
                channel.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    /** Reads the file block by block and hashes each object where it lies in the block. */
    @Benchmark
    public int baselineReadAndHash(RawFile f) throws IOException {
        MessageDigest sha = KnownObjects.sha256();
        long[] offsets = f.layout.offsets();
        int[] lengths = f.layout.lengths();
        long blockStart = 0;
        int blockLength = 0;
        int matches = 0;
        for (int i = 0; i < offsets.length; i++) {
            long end = offsets[i] + lengths[i];
            if (end > blockStart + blockLength) {
                blockStart = offsets[i];
                blockLength = (int) Math.min(BLOCK, f.layout.size() - blockStart);
                ByteBuffer buf = ByteBuffer.wrap(f.block, 0, blockLength);
                long pos = blockStart;
                while (buf.hasRemaining()) {
                    pos += f.channel.read(buf, pos);
                }
            }
            sha.update(f.block, (int) (offsets[i] - blockStart), lengths[i]);
            if (MessageDigest.isEqual(sha.digest(), f.expected[i])) {
                matches++;
            }
        }
        f.lastMatches = matches;
        return matches;
    }
}
