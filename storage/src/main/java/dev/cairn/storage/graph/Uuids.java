package dev.cairn.storage.graph;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Version 7 UUIDs (RFC 9562): a millisecond timestamp first, then random bits. Nodes stored
 * one after another get neighbouring keys, so the uuid index grows at its right edge instead
 * of taking page splits all over, which bulk stores feel.
 */
final class Uuids {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Uuids() {}

    static UUID v7() {
        long millis = System.currentTimeMillis();
        long randA = RANDOM.nextLong();
        long randB = RANDOM.nextLong();
        long msb = (millis << 16) | 0x7000L | (randA & 0x0FFFL);
        long lsb = (randB & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
