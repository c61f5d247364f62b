package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The objects of a workload file as {@link WorkloadGenerator} writes it and {@code jmh/objects-peer/workload.py}
 * reads it for disk-objectstore: little-endian
 * {@code uint32 count}, then for each object {@code uint32 length} and its bytes.
 */
public final class ObjectWorkload {

    private ObjectWorkload() {}

    public static List<byte[]> read(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()).order(ByteOrder.LITTLE_ENDIAN);
            int count = buf.getInt();
            List<byte[]> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] b = new byte[buf.getInt()];
                buf.get(b);
                out.add(b);
            }
            if (buf.hasRemaining()) {
                throw new IOException(file + " has " + buf.remaining() + " bytes after its last object");
            }
            return out;
        }
    }

    /**
     * A workload generated here: {@code n} objects with sizes uniform in [minSize, maxSize], of which a
     * fraction {@code duplicates} repeat an earlier object.
     */
    public static List<byte[]> generate(int n, int minSize, int maxSize, double duplicates, long seed) {
        return generate(n, minSize, maxSize, duplicates, seed, false);
    }

    /**
     * As {@link #generate(int, int, int, double, long)}; with {@code logUniform} the sizes are spread
     * evenly over orders of magnitude instead ({@code log(size + 1)} uniform), as files of a real store
     * are: many small ones, a few large ones holding most of the bytes.
     */
    public static List<byte[]> generate(
            int n, int minSize, int maxSize, double duplicates, long seed, boolean logUniform) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>(n);
        double lo = Math.log(minSize + 1.0);
        double hi = Math.log(maxSize + 1.0);
        for (int i = 0; i < n; i++) {
            if (i > 0 && r.nextDouble() < duplicates) {
                out.add(out.get(r.nextInt(i)));
                continue;
            }
            int size = logUniform
                    ? (int) Math.min(maxSize, Math.floor(Math.exp(lo + r.nextDouble() * (hi - lo))) - 1)
                    : minSize + r.nextInt(maxSize - minSize + 1);
            byte[] b = new byte[Math.max(minSize, size)];
            r.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    /** The indices 0..n-1 in a seeded random order. */
    public static List<Integer> shuffled(int n, long seed) {
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        return order;
    }
}
