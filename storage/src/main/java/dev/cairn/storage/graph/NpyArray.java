package dev.cairn.storage.graph;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * An n-dimensional array of float64 or int64 in NumPy's {@code .npy} format (version 1.0,
 * little-endian, C order), so array files open directly in NumPy.
 */
public record NpyArray(int[] shape, double[] doubles, long[] longs) {

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
        String dict = "{'descr': '" + (doubles != null ? "<f8" : "<i8") + "', 'fortran_order': False, 'shape': "
                + NpyHeader.tuple(shape) + ", }";
        int unpadded = NpyHeader.MAGIC.length + 2 + dict.length() + 1;
        String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        int count = doubles != null ? doubles.length : longs.length;
        ByteBuffer out = ByteBuffer.allocate(NpyHeader.MAGIC.length + 2 + header.length() + 8 * count)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put(NpyHeader.MAGIC).putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
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
        NpyHeader header;
        try {
            header = NpyHeader.read(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes in memory", e);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        in.position(header.length());
        int count = in.remaining() / 8;
        if (header.doubles()) {
            double[] values = new double[count];
            in.asDoubleBuffer().get(values);
            return new NpyArray(header.shape(), values, null);
        }
        long[] values = new long[count];
        in.asLongBuffer().get(values);
        return new NpyArray(header.shape(), null, values);
    }
}
