package dev.cairn.jmh.objects;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The measurement behind zstd as the modern pack codec: zlib level 1 ({@link Deflater}, what
 * disk-objectstore writes) against zstd level 1 ({@link ZstdCompressCtx} with its content checksum, what
 * {@code Compression.ZSTD} writes), compressing and decompressing one object per operation, cycling
 * through logs, float tables and JSON-like text ({@link ScientificText}). Both reuse their contexts, as the
 * store does. The baseline copies the same bytes once (what touching them costs).
 *
 * <p>Speed in MB/s is {@code size / score}; the compression ratios are printed by the compress forks'
 * tear-down, as lines starting with {@code [ratio]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class CompressionBenchmark {

    static final int LEVEL = 1;

    @Param({"1024", "65536"})
    int size;

    /** The objects, kinds interleaved (object i is of kind i % 3), and each one's two compressed forms. */
    byte[][] raw;

    byte[][] zlib;
    byte[][] zstd;
    byte[] out;
    int cursor;
    int lastIndex = -1;
    int lastLength;

    Deflater deflater;
    Inflater inflater;
    ZstdCompressCtx zstdCompress;
    ZstdDecompressCtx zstdDecompress;

    @Setup(Level.Trial)
    public void generate() throws DataFormatException {
        // About 768 KiB of text in all: a cache-sized working set that is not one repeated object.
        int perKind = Math.max(4, (256 << 10) / size);
        ScientificText[] kinds = ScientificText.values();
        byte[][][] byKind = new byte[kinds.length][][];
        for (int k = 0; k < kinds.length; k++) {
            byKind[k] = kinds[k].objects(perKind, size, 100 + k);
        }
        raw = new byte[perKind * kinds.length][];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = byKind[i % kinds.length][i / kinds.length];
        }
        out = new byte[(int) Math.max(Zstd.compressBound(size), size + (size >> 3) + 1024)];
        deflater = new Deflater(LEVEL);
        inflater = new Inflater();
        zstdCompress = new ZstdCompressCtx();
        zstdCompress.setLevel(LEVEL);
        zstdCompress.setChecksum(true);
        zstdCompress.setContentSize(true);
        zstdDecompress = new ZstdDecompressCtx();
        zlib = new byte[raw.length][];
        zstd = new byte[raw.length][];
        for (int i = 0; i < raw.length; i++) {
            zlib[i] = Arrays.copyOf(out, deflate(raw[i]));
            zstd[i] = Arrays.copyOf(out, zstdCompress.compressByteArray(out, 0, out.length, raw[i], 0, raw[i].length));
        }
    }

    @TearDown(Level.Trial)
    public void check(BenchmarkParams params) throws DataFormatException {
        try {
            String method =
                    params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
            KnownObjects.check(lastIndex >= 0, method + " never ran");
            switch (method) {
                case "zlibCompress" ->
                    KnownObjects.check(
                            lastLength == zlib[lastIndex].length,
                            "zlib compressed object " + lastIndex + " to " + lastLength + " B, not "
                                    + zlib[lastIndex].length);
                case "zstdCompress" ->
                    KnownObjects.check(
                            lastLength == zstd[lastIndex].length,
                            "zstd compressed object " + lastIndex + " to " + lastLength + " B, not "
                                    + zstd[lastIndex].length);
                default ->
                    KnownObjects.check(
                            lastLength == size && Arrays.equals(out, 0, size, raw[lastIndex], 0, size),
                            method + " produced wrong bytes for object " + lastIndex);
            }
            // Every object must come back from both codecs, whatever method this fork measured.
            for (int i = 0; i < raw.length; i++) {
                KnownObjects.check(
                        inflate(zlib[i]) == size && Arrays.equals(out, 0, size, raw[i], 0, size),
                        "zlib round trip of object " + i + " failed");
                KnownObjects.check(
                        zstdDecompress.decompressByteArray(out, 0, out.length, zstd[i], 0, zstd[i].length) == size
                                && Arrays.equals(out, 0, size, raw[i], 0, size),
                        "zstd round trip of object " + i + " failed");
            }
            if (method.equals("zlibCompress")) {
                printRatios("zlib-" + LEVEL, zlib);
            } else if (method.equals("zstdCompress")) {
                printRatios("zstd-" + LEVEL, zstd);
            }
        } finally {
            deflater.end();
            inflater.end();
            zstdCompress.close();
            zstdDecompress.close();
        }
    }

    private void printRatios(String codec, byte[][] compressed) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[ratio] %s size=%d:", codec, size));
        ScientificText[] kinds = ScientificText.values();
        long allRaw = 0;
        long allCompressed = 0;
        for (int k = 0; k < kinds.length; k++) {
            long r = 0;
            long c = 0;
            for (int i = k; i < raw.length; i += kinds.length) {
                r += raw[i].length;
                c += compressed[i].length;
            }
            allRaw += r;
            allCompressed += c;
            line.append(
                    String.format(Locale.ROOT, " %s %.2fx", kinds[k].name().toLowerCase(Locale.ROOT), (double) r / c));
        }
        line.append(String.format(
                Locale.ROOT, ", all %.2fx (%d B -> %d B)", (double) allRaw / allCompressed, allRaw, allCompressed));
        System.out.println(line);
    }

    private int next() {
        int i = cursor;
        cursor = i + 1 == raw.length ? 0 : i + 1;
        lastIndex = i;
        return i;
    }

    private int deflate(byte[] src) {
        deflater.reset();
        deflater.setInput(src);
        deflater.finish();
        int n = 0;
        while (!deflater.finished()) {
            n += deflater.deflate(out, n, out.length - n);
        }
        return n;
    }

    private int inflate(byte[] src) throws DataFormatException {
        inflater.reset();
        inflater.setInput(src);
        int n = 0;
        while (!inflater.finished()) {
            int k = inflater.inflate(out, n, out.length - n);
            if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                throw new DataFormatException("truncated zlib stream");
            }
            n += k;
        }
        return n;
    }

    /** Touching the same bytes once: what any codec pays at least. */
    @Benchmark
    public int baselineCopy() {
        byte[] src = raw[next()];
        System.arraycopy(src, 0, out, 0, src.length);
        return lastLength = src.length;
    }

    @Benchmark
    public int zlibCompress() {
        return lastLength = deflate(raw[next()]);
    }

    @Benchmark
    public int zlibDecompress() throws DataFormatException {
        return lastLength = inflate(zlib[next()]);
    }

    @Benchmark
    public int zstdCompress() {
        byte[] src = raw[next()];
        return lastLength = zstdCompress.compressByteArray(out, 0, out.length, src, 0, src.length);
    }

    @Benchmark
    public int zstdDecompress() {
        byte[] src = zstd[next()];
        return lastLength = zstdDecompress.decompressByteArray(out, 0, out.length, src, 0, src.length);
    }
}
