package dev.cairn.storage.graph;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The header of an {@code .npy} file of version 1.0 that Cairn stores: little-endian float64 or int64
 * values in C order. Read alone, it tells an upload's shape and how many bytes must follow without
 * reading the values, so an array of any size streams to the object store checked.
 *
 * @param doubles whether the values are float64 ({@code <f8}); else int64 ({@code <i8})
 * @param shape   the array's dimensions
 * @param length  the bytes of the header, magic included: where the values begin
 */
public record NpyHeader(boolean doubles, int[] shape, int length) {

    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};

    /** The longest header of version 1.0: the magic, the length and a dictionary of up to 65,535 bytes. */
    public static final int MAX_LENGTH = MAGIC.length + 2 + 0xFFFF;

    private static final Pattern DICT =
            Pattern.compile("\\{'descr': '(<f8|<i8)', 'fortran_order': False, 'shape': \\(([0-9, ]*)\\), *}\\s*");

    /** Refuses a negative dimension, and a shape of more values than a file can hold. */
    public NpyHeader {
        shape = shape.clone();
        for (int d : shape) {
            if (d < 0) {
                throw new InvalidInputException("negative dimension in shape " + Arrays.toString(shape));
            }
        }
        try {
            Math.addExact(length, Math.multiplyExact(8L, count(shape)));
        } catch (ArithmeticException e) {
            throw new InvalidInputException("the header's shape holds more values than a file can");
        }
    }

    @Override
    public int[] shape() {
        return shape.clone();
    }

    /** How many values the shape holds. */
    public long count() {
        return count(shape);
    }

    /** The size of the whole file: the header and eight bytes a value. */
    public long fileSize() {
        return length + 8 * count();
    }

    /** The shape as the header writes it, a Python tuple: {@code (2, 3)}. */
    public String shapeText() {
        return tuple(shape);
    }

    /** {@code shape} as a header writes it, a Python tuple: {@code (2, 3)}, {@code (4, )}. */
    static String tuple(int[] shape) {
        StringBuilder dims = new StringBuilder("(");
        for (int d : shape) {
            dims.append(d).append(", ");
        }
        if (shape.length > 1) {
            dims.setLength(dims.length() - 2);
        }
        return dims.append(')').toString();
    }

    private static long count(int[] shape) {
        long count = 1;
        for (int d : shape) {
            count = Math.multiplyExact(count, d);
        }
        return count;
    }

    /**
     * The header at the start of {@code in}, which is left after it.
     *
     * @throws InvalidInputException if it is not the header of an {@code .npy} file Cairn stores
     */
    public static NpyHeader read(InputStream in) throws IOException {
        byte[] start = in.readNBytes(MAGIC.length + 2);
        if (start.length < MAGIC.length + 2 || !Arrays.equals(Arrays.copyOf(start, MAGIC.length), MAGIC)) {
            throw new InvalidInputException("not an .npy file of version 1.0 (numpy.save writes one)");
        }
        int dictLength = Byte.toUnsignedInt(start[8]) | Byte.toUnsignedInt(start[9]) << 8;
        byte[] dict = in.readNBytes(dictLength);
        String text = new String(dict, StandardCharsets.US_ASCII);
        Matcher m = DICT.matcher(text);
        if (dict.length < dictLength || !m.matches()) {
            throw new InvalidInputException(
                    "unsupported .npy header (float64 or int64, little-endian, C order): " + text.trim());
        }
        int[] shape = Arrays.stream(m.group(2).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .mapToInt(NpyHeader::dimension)
                .toArray();
        return new NpyHeader(m.group(1).equals("<f8"), shape, start.length + dictLength);
    }

    private static int dimension(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new InvalidInputException("an .npy dimension of " + digits + " is beyond what Cairn stores");
        }
    }
}
