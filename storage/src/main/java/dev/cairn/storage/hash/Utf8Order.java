package dev.cairn.storage.hash;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;

/**
 * Orders strings as their UTF-8 bytes compare, unsigned, which is code point order. Java's
 * {@link String#compareTo} compares UTF-16 units instead, and the two disagree when a
 * character above U+FFFF meets one in U+E000..U+FFFF; other languages sort by bytes, so a
 * hash that anyone can recompute must too.
 */
final class Utf8Order {

    static final Comparator<String> STRINGS = Utf8Order::compare;
    static final Comparator<Map.Entry<String, ?>> ENTRIES = (a, b) -> compare(a.getKey(), b.getKey());

    private Utf8Order() {}

    /** Sorts entries by key; insertion sort for the small maps that attributes are made of. */
    static void sortByKey(Map.Entry<String, ?>[] entries) {
        sortByKey(entries, entries.length);
    }

    /** Sorts the first {@code size} entries by key. */
    static void sortByKey(Map.Entry<String, ?>[] entries, int size) {
        if (size > 16) {
            Arrays.sort(entries, 0, size, ENTRIES);
            return;
        }
        for (int i = 1; i < size; i++) {
            Map.Entry<String, ?> entry = entries[i];
            int j = i - 1;
            while (j >= 0 && compare(entries[j].getKey(), entry.getKey()) > 0) {
                entries[j + 1] = entries[j];
                j--;
            }
            entries[j + 1] = entry;
        }
    }

    static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= 0xD800 && y >= 0xD800) {
                    // Move surrogates (D800..DFFF) above E000..FFFF, as their code points are.
                    return shift(x) - shift(y);
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    private static int shift(char c) {
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
}
