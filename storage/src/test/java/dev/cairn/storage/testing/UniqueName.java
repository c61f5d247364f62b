package dev.cairn.storage.testing;

import java.util.Locale;
import java.util.UUID;

/**
 * Names for per-class databases and virtual hosts: readable (the test class is in them,
 * so a leftover is easy to trace) and unique (a random suffix, so parallel builds on one
 * server never collide). Only {@code [a-z0-9_]}, so they need no quoting rules of their own
 * and stay within PostgreSQL's 63-byte identifiers.
 */
final class UniqueName {

    private static final int MAX_LABEL = 30;

    private UniqueName() {}

    static String of(String prefix, String label) {
        String cleaned =
                label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (cleaned.length() > MAX_LABEL) {
            cleaned = cleaned.substring(0, MAX_LABEL);
        }
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        return prefix + "_" + (cleaned.isEmpty() ? "" : cleaned + "_") + suffix;
    }
}
