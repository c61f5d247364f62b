package dev.cairn.jmh.graph;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.bouncycastle.crypto.digests.Blake2bDigest;
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

import dev.cairn.storage.hash.HashInput;
import dev.cairn.storage.hash.NodeHasher;

/**
 * {@link NodeHasher#hash} of a structure-like node (cell 3x3, pbc1..3, kinds, sites with
 * positions), against plain BLAKE2b-256 of a byte array as long as that node's canonical form:
 * the ratio is the cost of walking the attributes and writing the typed form.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NodeHashingBenchmark {

    @State(Scope.Benchmark)
    public static class Structure {
        @Param("36")
        int sites;

        HashInput node;
        byte[] canonical;
        String lastHash;
        String lastBaseline;

        @Setup(Level.Trial)
        public void build() {
            node = structure(sites, new SplittableRandom(17));
            canonical = NodeHasher.canonicalBytes(node);
        }

        @TearDown(Level.Trial)
        public void check() {
            // Each benchmark method runs in its own fork: check the one that ran.
            String expected = hex(blake2b(canonical));
            if (lastHash == null && lastBaseline == null) {
                throw new IllegalStateException("no hash was computed");
            }
            if (lastHash != null && !expected.equals(lastHash)) {
                throw new IllegalStateException(
                        "hash " + lastHash + " is not BLAKE2b-256 of the canonical form, " + expected);
            }
            if (lastBaseline != null && !expected.equals(lastBaseline)) {
                throw new IllegalStateException("the baseline digest " + lastBaseline + " is wrong");
            }
        }
    }

    @Benchmark
    public String hash(Structure s) {
        String h = NodeHasher.hash(s.node);
        s.lastHash = h;
        return h;
    }

    /** BLAKE2b-256 of the node's canonical bytes, already built, plus the same hex formatting. */
    @Benchmark
    public String baselineBlake2b(Structure s) {
        String h = hex(blake2b(s.canonical));
        s.lastBaseline = h;
        return h;
    }

    private static byte[] blake2b(byte[] bytes) {
        Blake2bDigest digest = new Blake2bDigest(256);
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** Cell 3x3 doubles, pbc1..3, three kinds, {@code sites} sites at random positions. */
    static HashInput structure(int sites, SplittableRandom random) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        double a = 5 + random.nextDouble() * 10;
        attributes.put(
                "cell",
                List.of(
                        List.of(a, 0.0, 0.0),
                        List.of(0.0, a, 0.0),
                        List.of(random.nextDouble(), random.nextDouble(), 2 * a)));
        attributes.put("pbc1", true);
        attributes.put("pbc2", true);
        attributes.put("pbc3", true);
        String[] names = {"Ba", "Ti", "O"};
        double[] masses = {137.327, 47.867, 15.999};
        List<Object> kinds = new ArrayList<>();
        for (int k = 0; k < names.length; k++) {
            kinds.add(
                    Map.of("name", names[k], "symbols", List.of(names[k]), "weights", List.of(1.0), "mass", masses[k]));
        }
        attributes.put("kinds", kinds);
        List<Object> siteList = new ArrayList<>();
        for (int i = 0; i < sites; i++) {
            Map<String, Object> site = new LinkedHashMap<>();
            site.put("kind_name", names[i % names.length]);
            site.put(
                    "position", List.of(random.nextDouble() * a, random.nextDouble() * a, random.nextDouble() * 2 * a));
            siteList.add(site);
        }
        attributes.put("sites", siteList);
        return HashInput.ofData("data.core.structure.StructureData.", attributes, Map.of(), null);
    }
}
