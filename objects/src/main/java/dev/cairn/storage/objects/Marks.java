package dev.cairn.storage.objects;

import java.util.List;

/**
 * The keys pending deletion (marked by a {@link Sweep}) as this process last read them from the index:
 * sorted, four words a key in one array, searched in place. Usually empty, so a put's check costs a
 * length test; 32 bytes a key when not.
 */
final class Marks {

    static final Marks NONE = new Marks(new long[0]);

    private final long[] words;

    private Marks(long[] words) {
        this.words = words;
    }

    /** The keys of 32-byte digests given in ascending byte order (SQLite's order of BLOBs). */
    static Marks ofSortedDigests(List<byte[]> digests) {
        if (digests.isEmpty()) {
            return NONE;
        }
        long[] w = new long[digests.size() * 4];
        for (int i = 0; i < digests.size(); i++) {
            ObjectKey k = ObjectKey.ofDigest(digests.get(i));
            for (int j = 0; j < 4; j++) {
                w[i * 4 + j] = k.word(j);
            }
        }
        return new Marks(w);
    }

    boolean isEmpty() {
        return words.length == 0;
    }

    int size() {
        return words.length / 4;
    }

    boolean contains(ObjectKey key) {
        int lo = 0;
        int hi = size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compare(mid, key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return true;
            }
        }
        return false;
    }

    private int compare(int i, ObjectKey key) {
        for (int j = 0; j < 4; j++) {
            int c = Long.compareUnsigned(words[i * 4 + j], key.word(j));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
