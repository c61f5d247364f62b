package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
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

import dev.cairn.storage.objects.Compression;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.objects.ContainerStats;
import dev.cairn.storage.objects.ObjectKey;

/**
 * {@code put(byte[])} of a ~500 B object the container already holds, packed or loose (a node stored
 * with a file an earlier node has): nothing is written, so what a put costs beyond the key's hash is
 * the look-ups that find the object. Against a JDK SHA-256 of the same bytes, the floor of any put.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DedupPutBenchmark {

    @State(Scope.Benchmark)
    public static class Store {
        @Param({"packed", "loose"})
        String layout;

        @Param("10000")
        int count;

        @Param("500")
        int size;

        Path dir;
        Container container;
        List<byte[]> contents;
        List<ObjectKey> keys;
        MessageDigest sha;
        int next;

        @Setup(Level.Trial)
        public void fill() throws IOException {
            byte[] template = new byte[size];
            new Random(7).nextBytes(template);
            contents = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                contents.add(KnownObjects.numbered(template, i));
            }
            sha = KnownObjects.sha256();
            keys = new ArrayList<>(count);
            for (byte[] c : contents) {
                keys.add(ObjectKey.ofDigest(sha.digest(c)));
            }
            dir = BenchmarkDirs.newDir("dedup-put");
            container = Container.init(dir.resolve("container"), ContainerConfig.defaults());
            if (layout.equals("packed")) {
                container.putAllToPacks(contents, Compression.NONE);
            } else {
                for (byte[] c : contents) {
                    container.put(c);
                }
            }
        }

        byte[] nextContent() {
            byte[] c = contents.get(next);
            next = next + 1 == count ? 0 : next + 1;
            return c;
        }

        @TearDown(Level.Trial)
        public void check() throws IOException {
            try {
                ContainerStats s = container.stats();
                long held = layout.equals("packed") ? s.packedObjects() : s.looseObjects();
                long other = layout.equals("packed") ? s.looseObjects() : s.packedObjects();
                KnownObjects.check(held == count && other == 0, "puts of stored objects wrote something: " + s);
                for (int i = 0; i < count; i += 97) {
                    KnownObjects.check(
                            container.put(contents.get(i)).equals(keys.get(i)),
                            "put returned a wrong key for object " + i);
                }
            } finally {
                container.close();
                BenchmarkDirs.delete(dir);
            }
        }
    }

    @Benchmark
    public ObjectKey put(Store s) throws IOException {
        return s.container.put(s.nextContent());
    }

    @Benchmark
    public byte[] baselineSha256(Store s) {
        return s.sha.digest(s.nextContent());
    }
}
