package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.objects.ObjectKey;

/**
 * A generated workload together with what the store must answer for it, computed here with the JDK's
 * SHA-256 and nothing of the store: the key of every object, and the distinct objects (the workload
 * repeats some, and every empty object has the same key) in order of first appearance.
 */
final class KnownObjects {

    /** The workload as generated, repeats included. */
    final List<byte[]> contents;
    /** The key of each content, same order. */
    final List<ObjectKey> keys;
    /** Each distinct object once, in order of first appearance (the order a pack writer stores them). */
    final List<ObjectKey> distinctKeys;

    final List<byte[]> distinctContents;
    final long distinctBytes;

    private KnownObjects(List<byte[]> contents) {
        this.contents = contents;
        MessageDigest sha = sha256();
        Map<ObjectKey, byte[]> distinct = new LinkedHashMap<>();
        List<ObjectKey> k = new ArrayList<>(contents.size());
        for (byte[] c : contents) {
            ObjectKey key = ObjectKey.ofDigest(sha.digest(c));
            k.add(key);
            distinct.putIfAbsent(key, c);
        }
        this.keys = List.copyOf(k);
        this.distinctKeys = List.copyOf(distinct.keySet());
        this.distinctContents = List.copyOf(distinct.values());
        this.distinctBytes = distinctContents.stream().mapToLong(b -> b.length).sum();
    }

    /** {@code n} random objects of 0 to {@code maxSize} bytes, no deliberate repeats. */
    static KnownObjects random(int n, int maxSize, long seed) {
        return new KnownObjects(ObjectWorkload.generate(n, 0, maxSize, 0.0, seed));
    }

    int distinctCount() {
        return distinctKeys.size();
    }

    /** The distinct keys in a seeded random order. */
    List<ObjectKey> distinctKeysShuffled(long seed) {
        List<ObjectKey> out = new ArrayList<>(distinctCount());
        for (int i : ObjectWorkload.shuffled(distinctCount(), seed)) {
            out.add(distinctKeys.get(i));
        }
        return out;
    }

    /** Where each distinct object lies in a file written by {@link #writeConcatenated}. */
    record Layout(long[] offsets, int[] lengths, long size) {}

    /** Writes the distinct objects back to back into a new file (the raw form of an uncompressed pack). */
    Layout writeConcatenated(Path file) throws IOException {
        long[] offsets = new long[distinctCount()];
        int[] lengths = new int[distinctCount()];
        long pos = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < distinctCount(); i++) {
                byte[] b = distinctContents.get(i);
                offsets[i] = pos;
                lengths[i] = b.length;
                ByteBuffer buf = ByteBuffer.wrap(b);
                while (buf.hasRemaining()) {
                    pos += ch.write(buf, pos);
                }
            }
            ch.force(false);
        }
        return new Layout(offsets, lengths, pos);
    }

    /** Fails unless {@code got} holds exactly the distinct objects. */
    void checkAll(Map<ObjectKey, byte[]> got, String what) {
        check(got.size() == distinctCount(), what + ": " + got.size() + " objects instead of " + distinctCount());
        for (int i = 0; i < distinctCount(); i++) {
            if (!Arrays.equals(distinctContents.get(i), got.get(distinctKeys.get(i)))) {
                throw new IllegalStateException(what + ": object " + distinctKeys.get(i) + " read back wrong");
            }
        }
    }

    /** A benchmark's correctness check: thrown from a {@code @TearDown}, it fails the run. */
    static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    /** {@code template} with {@code i} in its first eight bytes: distinct contents of one size, so nothing dedupes. */
    static byte[] numbered(byte[] template, long i) {
        byte[] b = template.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(0, i);
        return b;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
