package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ObjectKey;

/**
 * {@code put(byte[])} of a new ~500 B object per operation (a counter written into random bytes, so
 * nothing dedupes), against the same durability steps done raw: create a file, write, {@code force},
 * close, rename into one of 256 shard folders, {@code force} that folder (a shard's first object also
 * creates the folder and syncs its parent, in both). Both are dominated by the fsyncs, whose latency
 * on a shared virtual disk varies from run to run; the ratio says what the store adds around them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LooseWriteBenchmark {

    /** Object {@code i}: fixed random bytes with {@code i} in the first eight. */
    @State(Scope.Benchmark)
    public static class Contents {
        @Param("500")
        int size;

        byte[] template;

        @Setup(Level.Trial)
        public void generate() {
            template = new byte[size];
            new Random(5).nextBytes(template);
        }

        byte[] content(long i) {
            return KnownObjects.numbered(template, i);
        }
    }

    @State(Scope.Benchmark)
    public static class Store {
        Path dir;
        Container container;
        final List<ObjectKey> keys = new ArrayList<>();

        @Setup(Level.Trial)
        public void open() throws IOException {
            dir = BenchmarkDirs.newDir("loose-write");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
        }

        @TearDown(Level.Trial)
        public void check(Contents c) throws IOException {
            try {
                KnownObjects.check(!keys.isEmpty(), "no object was written");
                var sha = KnownObjects.sha256();
                for (int i = 0; i < keys.size(); i++) {
                    byte[] expected = c.content(i);
                    KnownObjects.check(
                            ObjectKey.ofDigest(sha.digest(expected)).equals(keys.get(i)),
                            "put returned a wrong key for object " + i);
                    KnownObjects.check(
                            Arrays.equals(container.get(keys.get(i)), expected), "object " + i + " reads back wrong");
                }
                var stats = container.stats();
                KnownObjects.check(
                        stats.looseObjects() == keys.size(),
                        keys.size() + " puts left " + stats.looseObjects() + " loose objects");
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public ObjectKey put(Contents c, Store s) throws IOException {
        ObjectKey key = s.container.put(c.content(s.keys.size()));
        s.keys.add(key);
        return key;
    }

    @State(Scope.Benchmark)
    public static class RawDir {
        Path dir;
        Path tmp;
        Path objects;
        FileChannel objectsChannel;
        /** Shard folders, kept open once created (as the store keeps its own for their fsync). */
        FileChannel[] shardChannels = new FileChannel[256];

        long written;

        @Setup(Level.Trial)
        public void create() throws IOException {
            dir = BenchmarkDirs.newDir("loose-write-raw");
            tmp = Files.createDirectory(dir.resolve("tmp"));
            objects = Files.createDirectory(dir.resolve("objects"));
            objectsChannel = FileChannel.open(objects, StandardOpenOption.READ);
        }

        static int shard(long i) {
            return (int) ((i * 0x9E3779B97F4A7C15L) >>> 56); // spread as a key's first byte would be
        }

        Path shardDir(long i) {
            return objects.resolve("%02x".formatted(shard(i)));
        }

        Path target(long i) {
            return shardDir(i).resolve(Long.toString(i));
        }

        /** The shard folder's channel; the first object of a shard creates it and syncs its parent, as the store does. */
        FileChannel shardChannel(long i) throws IOException {
            FileChannel ch = shardChannels[shard(i)];
            if (ch == null) {
                Files.createDirectory(shardDir(i));
                objectsChannel.force(true);
                ch = FileChannel.open(shardDir(i), StandardOpenOption.READ);
                shardChannels[shard(i)] = ch;
            }
            return ch;
        }

        @TearDown(Level.Trial)
        public void check(Contents c) throws IOException {
            try {
                KnownObjects.check(written > 0, "the baseline wrote nothing");
                for (long i = 0; i < written; i++) {
                    KnownObjects.check(
                            Arrays.equals(Files.readAllBytes(target(i)), c.content(i)),
                            "baseline file " + i + " reads back wrong");
                }
            } finally {
                for (FileChannel ch : shardChannels) {
                    if (ch != null) {
                        ch.close();
                    }
                }
                objectsChannel.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public long baselineCreateWriteSyncRename(Contents c, RawDir d) throws IOException {
        long i = d.written;
        Path tmp = d.tmp.resolve(Long.toString(i));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(c.content(i));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(false);
        }
        FileChannel shard = d.shardChannel(i);
        Files.move(tmp, d.target(i), StandardCopyOption.ATOMIC_MOVE);
        shard.force(true);
        d.written = i + 1;
        return i;
    }
}
