package dev.cairn.storage.graph;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;

/**
 * Named n-dimensional numeric arrays. Each array is a file {@code <name>.npy} among the
 * node's files (so large arrays stay out of the database); the attribute
 * {@code array|<name>} holds its shape, so queries can see shapes without reading files.
 */
public final class ArrayData extends Data {

    public static final String TYPE = "data.core.array.ArrayData.";
    private static final String PREFIX = "array|";

    /** An empty array node; add its arrays before storing it. */
    public ArrayData() {
        super(TYPE);
    }

    ArrayData(NodeRecord row) {
        super(row);
    }

    /** Adds or replaces an array; names are identifiers so the file name is safe. */
    public ArrayData set(String name, NpyArray array) {
        checkName(name);
        files().put(fileName(name), array.toBytes());
        setAttribute(PREFIX + name, Arrays.stream(array.shape()).boxed().toList());
        return this;
    }

    /**
     * Adds or replaces an array whose {@code .npy} file is read from {@code npy} when the node is
     * stored, in bounded memory: an upload. {@code header} is the file's, checked by the caller
     * against the file's size; the caller closes the stream.
     */
    public ArrayData set(String name, NpyHeader header, InputStream npy) {
        checkName(name);
        files().put(fileName(name), npy);
        setAttribute(PREFIX + name, Arrays.stream(header.shape()).boxed().toList());
        return this;
    }

    /** Whether {@code name} may name an array: letters, digits and '_', so that its file name is safe. */
    public static boolean isName(String name) {
        return name.matches("[A-Za-z0-9_]+");
    }

    private static void checkName(String name) {
        if (!isName(name)) {
            throw new InvalidInputException("array name '" + name + "' must be letters, digits and '_'");
        }
    }

    /** The names of the arrays, sorted. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (String key : attributes().keySet()) {
            if (key.startsWith(PREFIX)) {
                names.add(key.substring(PREFIX.length()));
            }
        }
        names.sort(null);
        return names;
    }

    /** The shape of one array, from the attributes (no file read). */
    public int[] shape(String name) {
        Object shape = attribute(PREFIX + name);
        if (!(shape instanceof List<?> dims)) {
            throw new NotFoundException("no array '" + name + "'; arrays: " + names());
        }
        return dims.stream().mapToInt(d -> ((Number) d).intValue()).toArray();
    }

    /** The file that holds one array. */
    public static String fileName(String name) {
        return name + ".npy";
    }
}
