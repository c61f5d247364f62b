package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.openjdk.jmh.infra.Blackhole;

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ObjectConsumer;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Reading every object of a packed container in random key order, in one {@code getAll} call and in ten,
 * against the raw cost of the same byte ranges: one positional {@code FileChannel.read} per object, sorted
 * by position, into one buffer. The page cache is warm for both (the files were just written).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BulkReadBenchmark {

    @State(Scope.Benchmark)
    public static class Input {
        @Param({"10000", "100000"})
        int count;

        KnownObjects objects;
        /** The distinct objects' indices in a random order, and their keys in that order. */
        List<Integer> order;

        List<ObjectKey> keys;

        @Setup(Level.Trial)
        public void generate() {
            objects = KnownObjects.random(count, 1000, 7);
            order = ObjectWorkload.shuffled(objects.distinctCount(), 8);
            keys = order.stream().map(objects.distinctKeys::get).toList();
        }
    }

    @State(Scope.Benchmark)
    public static class Store {
        Path dir;
        Container container;
        List<List<ObjectKey>> chunks;
        Tally last;

        @Setup(Level.Trial)
        public void fill(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("bulk-read");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
            container.putAllToPacks(in.objects.contents, Compression.NONE);
            int chunk = (in.keys.size() + 9) / 10;
            chunks = new ArrayList<>();
            for (int i = 0; i < in.keys.size(); i += chunk) {
                chunks.add(in.keys.subList(i, Math.min(in.keys.size(), i + chunk)));
            }
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        last.objects == in.objects.distinctCount() && last.bytes == in.objects.distinctBytes,
                        "the last getAll delivered " + last.objects + " objects of " + last.bytes + " B, expected "
                                + in.objects.distinctCount() + " of " + in.objects.distinctBytes);
                in.objects.checkAll(container.getAll(in.keys), "getAll");
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    /** Counts what a bulk read delivered and hands each object to the blackhole. */
    static final class Tally implements ObjectConsumer {
        private final Blackhole bh;
        long objects;
        long bytes;

        Tally(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public void accept(ObjectKey key, byte[] content) {
            objects++;
            bytes += content.length;
            bh.consume(content);
        }
    }

    @Benchmark
    public long getAllOneCall(Input in, Store s, Blackhole bh) throws IOException {
        Tally t = new Tally(bh);
        s.container.getAll(in.keys, t);
        s.last = t;
        return t.bytes;
    }

    @Benchmark
    public long getAllTenChunks(Store s, Blackhole bh) throws IOException {
        Tally t = new Tally(bh);
        for (List<ObjectKey> chunk : s.chunks) {
            s.container.getAll(chunk, t);
        }
        s.last = t;
        return t.bytes;
    }

    @State(Scope.Benchmark)
    public static class RawFile {
        Path dir;
        FileChannel channel;
        /** Each range as {@code offset << 20 | length} (objects are under 1 MiB), in the random order. */
        long[] ranges;

        KnownObjects.Layout layout;
        ByteBuffer buffer;
        long lastRead;

        @Setup(Level.Trial)
        public void write(Input in) throws IOException {
            dir = BenchmarkDirs.newDir("bulk-read-raw");
            Path file = dir.resolve("raw");
            layout = in.objects.writeConcatenated(file);
            ranges = new long[in.order.size()];
            for (int i = 0; i < ranges.length; i++) {
                int j = in.order.get(i);
                ranges[i] = layout.offsets()[j] << 20 | layout.lengths()[j];
            }
            channel = FileChannel.open(file, StandardOpenOption.READ);
            buffer = ByteBuffer.allocateDirect((int) layout.size());
        }

        @TearDown(Level.Trial)
        public void check(Input in) throws IOException {
            try {
                KnownObjects.check(
                        lastRead == in.objects.distinctBytes,
                        "the baseline read " + lastRead + " B instead of " + in.objects.distinctBytes);
                // Sorted by position, the ranges tile the file: the buffer must now be its exact copy.
                int pos = 0;
                for (byte[] b : in.objects.distinctContents) {
                    byte[] got = new byte[b.length];
                    buffer.get(pos, got);
                    KnownObjects.check(Arrays.equals(b, got), "the baseline read wrong bytes at " + pos);
                    pos += b.length;
                }
            } finally {
                channel.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    /** The same ranges, sorted by position, one {@code pread} each into one buffer. */
    @Benchmark
    public long baselinePositionalReads(RawFile f) throws IOException {
        long[] sorted = f.ranges.clone();
        Arrays.sort(sorted); // the offset is in the high bits
        ByteBuffer buf = f.buffer;
        int dst = 0;
        for (long r : sorted) {
            long offset = r >>> 20;
            int length = (int) (r & 0xFFFFF);
            if (length == 0) {
                continue;
            }
            buf.limit(dst + length).position(dst);
            long pos = offset;
            while (buf.hasRemaining()) {
                pos += f.channel.read(buf, pos);
            }
            dst += length;
        }
        f.lastRead = dst;
        return dst;
    }
}
