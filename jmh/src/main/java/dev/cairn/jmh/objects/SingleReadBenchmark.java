package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
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

/**
 * {@code get(key)} of a random object per operation, packed or loose, against one positional
 * {@code FileChannel.read} of the same object-sized range of one file into a new array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SingleReadBenchmark {

    @State(Scope.Benchmark)
    public static class Input {
        @Param("10000")
        int count;

        KnownObjects objects;
        ObjectKey[] keys;
        /** A fixed random sequence of object indices, walked one per operation. */
        int[] picks;

        int cursor;

        @Setup(Level.Trial)
        public void generate() {
            objects = KnownObjects.random(count, 1000, 11);
            keys = objects.distinctKeys.toArray(ObjectKey[]::new);
            picks = new Random(12).ints(1 << 16, 0, keys.length).toArray();
        }

        int next() {
            return picks[cursor++ & (picks.length - 1)];
        }
    }

    @State(Scope.Benchmark)
    public static class Store {
        @Param({"packed", "loose"})
        String layout;

        Path dir;
        Container container;
        int lastIndex = -1;
        byte[] last;

        @Setup(Level.Trial)
        public void fill(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("single-read");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
            switch (layout) {
                case "packed" -> container.putAllToPacks(in.objects.contents, Compression.NONE);
                case "loose" -> {
                    for (byte[] b : in.objects.distinctContents) {
                        container.put(b);
                    }
                }
                default -> throw new IllegalArgumentException("layout is packed or loose, not " + layout);
            }
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        lastIndex >= 0 && Arrays.equals(last, in.objects.distinctContents.get(lastIndex)),
                        "the last get returned wrong bytes for " + in.keys[lastIndex]);
                var stats = container.stats();
                long expected = in.objects.distinctCount();
                KnownObjects.check(
                        layout.equals("packed")
                                ? stats.packedObjects() == expected && stats.looseObjects() == 0
                                : stats.looseObjects() == expected && stats.packedObjects() == 0,
                        "the container is not " + layout + ": " + stats);
                for (int i = 0; i < in.keys.length; i++) {
                    KnownObjects.check(
                            Arrays.equals(container.get(in.keys[i]), in.objects.distinctContents.get(i)),
                            "get returned wrong bytes for " + in.keys[i]);
                }
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public byte[] get(Input in, Store s) throws IOException {
        int i = in.next();
        byte[] b = s.container.get(in.keys[i]);
        s.lastIndex = i;
        s.last = b;
        return b;
    }

    @State(Scope.Benchmark)
    public static class RawFile {
        Path dir;
        FileChannel channel;
        KnownObjects.Layout layout;
        int lastIndex = -1;
        byte[] last;

        @Setup(Level.Trial)
        public void write(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("single-read-raw");
            Path file = dir.resolve("raw");
            layout = in.objects.writeConcatenated(file);
            channel = FileChannel.open(file, StandardOpenOption.READ);
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        lastIndex >= 0 && Arrays.equals(last, in.objects.distinctContents.get(lastIndex)),
                        "the baseline read wrong bytes for object " + lastIndex);
            } finally {
                channel.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public byte[] baselinePositionalRead(Input in, RawFile f) throws IOException {
        int i = in.next();
        byte[] b = new byte[f.layout.lengths()[i]];
        ByteBuffer buf = ByteBuffer.wrap(b);
        long pos = f.layout.offsets()[i];
        while (buf.hasRemaining()) {
            pos += f.channel.read(buf, pos);
        }
        f.lastIndex = i;
        f.last = b;
        return b;
    }
}
