package dev.cairn.storage.graph;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * An n-dimensional array of float64 or int64 in NumPy's {@code .npy} format (version 1.0,
 * little-endian, C order), so array files open directly in NumPy.
 */
public record NpyArray(int[] shape, double[] doubles, long[] longs) {

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    private static final Pattern HEADER =
            Pattern.compile("\\{'descr': '(<f8|<i8)', 'fortran_order': False, 'shape': \\(([0-9, ]*)\\), *}\\s*");

    public NpyArray {
        shape = shape.clone();
        long size = 1;
        for (int d : shape) {
            if (d < 0) {
                throw new InvalidInputException("negative dimension in shape " + Arrays.toString(shape));
            }
            size *= d;
        }
        if ((doubles == null) == (longs == null)) {
            throw new InvalidInputException("an array holds either doubles or longs");
        }
        int length = doubles != null ? doubles.length : longs.length;
        if (size != length) {
            throw new InvalidInputException(
                    "shape " + Arrays.toString(shape) + " holds " + size + " values, the data has " + length);
        }
    }

    /** An array of doubles in row-major order, of shape {@code shape}. */
    public static NpyArray of(double[] values, int... shape) {
        return new NpyArray(shape, values.clone(), null);
    }

    /** An array of longs in row-major order, of shape {@code shape}. */
    public static NpyArray of(long[] values, int... shape) {
        return new NpyArray(shape, null, values.clone());
    }

    /** The array as an {@code .npy} file of version 1.0, as NumPy writes it. */
    public byte[] toBytes() {
        StringBuilder dims = new StringBuilder();
        for (int d : shape) {
            dims.append(d).append(", ");
        }
        if (shape.length > 1) {
            dims.setLength(dims.length() - 2);
        }
        String dict = "{'descr': '" + (doubles != null ? "<f8" : "<i8") + "', 'fortran_order': False, 'shape': (" + dims
                + "), }";
        int unpadded = MAGIC.length + 2 + dict.length() + 1;
        String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        int count = doubles != null ? doubles.length : longs.length;
        ByteBuffer out = ByteBuffer.allocate(MAGIC.length + 2 + header.length() + 8 * count)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        if (doubles != null) {
            out.asDoubleBuffer().put(doubles);
        } else {
            out.asLongBuffer().put(longs);
        }
        return out.array();
    }

    /**
     * The array of an {@code .npy} file of version 1.0 (little-endian doubles or longs).
     *
     * @throws InvalidInputException if the bytes are not such a file
     */
    public static NpyArray fromBytes(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 10 || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
            throw new InvalidInputException("not an .npy file of version 1.0");
        }
        int headerLength = Short.toUnsignedInt(in.getShort(8));
        String header = new String(bytes, 10, headerLength, StandardCharsets.US_ASCII);
        Matcher m = HEADER.matcher(header);
        if (!m.matches()) {
            throw new InvalidInputException("unsupported .npy header (float64/int64, C order only): " + header.trim());
        }
        int[] shape = Arrays.stream(m.group(2).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .mapToInt(Integer::parseInt)
                .toArray();
        in.position(10 + headerLength);
        int count = in.remaining() / 8;
        if (m.group(1).equals("<f8")) {
            double[] values = new double[count];
            in.asDoubleBuffer().get(values);
            return new NpyArray(shape, values, null);
        }
        long[] values = new long[count];
        in.asLongBuffer().get(values);
        return new NpyArray(shape, null, values);
    }
}
