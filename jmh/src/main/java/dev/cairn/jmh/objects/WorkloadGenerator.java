package dev.cairn.jmh.objects;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes a workload file of the object store comparison ({@link ObjectWorkload}): by default 100,000 objects of
 * 0 to 1000 random bytes, and other mixes (larger objects, log-uniform sizes, many duplicates).
 *
 * <pre>java -cp benchmarks.jar dev.cairn.jmh.objects.WorkloadGenerator OUT N MIN_SIZE MAX_SIZE [DUPLICATE_FRACTION] [SEED] [uniform|log-uniform]</pre>
 *
 * <p>Sizes are uniform in [MIN_SIZE, MAX_SIZE] unless {@code log-uniform} is given.
 */
public final class WorkloadGenerator {

    private WorkloadGenerator() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println(
                    "usage: WorkloadGenerator OUT N MIN_SIZE MAX_SIZE [DUPLICATE_FRACTION] [SEED] [uniform|log-uniform]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int min = Integer.parseInt(args[2]);
        int max = Integer.parseInt(args[3]);
        double dup = args.length > 4 ? Double.parseDouble(args[4]) : 0;
        long seed = args.length > 5 ? Long.parseLong(args[5]) : 42;
        String sizes = args.length > 6 ? args[6] : "uniform";
        if (!sizes.equals("uniform") && !sizes.equals("log-uniform")) {
            throw new IllegalArgumentException("sizes are uniform or log-uniform, not '" + sizes + "'");
        }
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("sizes must satisfy 0 <= MIN_SIZE <= MAX_SIZE");
        }
        write(out, ObjectWorkload.generate(n, min, max, dup, seed, sizes.equals("log-uniform")));
    }

    static void write(Path out, List<byte[]> objects) throws IOException {
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
            ByteBuffer four = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            os.write(four.putInt(0, objects.size()).array());
            for (byte[] b : objects) {
                os.write(four.putInt(0, b.length).array());
                os.write(b);
            }
        }
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
    }
}
