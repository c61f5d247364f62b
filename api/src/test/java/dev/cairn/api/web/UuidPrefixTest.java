package dev.cairn.api.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class UuidPrefixTest {

    @Test
    void aPrefixNamesTheRangeOfTheUuidsWhoseTextBeginsWithIt() {
        UuidPrefix range = UuidPrefix.of("0190c1a2-0f").orElseThrow();
        assertEquals(UUID.fromString("0190c1a2-0f00-0000-0000-000000000000"), range.lowest());
        assertEquals(UUID.fromString("0190c1a2-0fff-ffff-ffff-ffffffffffff"), range.highest());
        UUID whole = UUID.fromString("0190c1a2-0fb1-7e33-8174-c0b943afe7c8");
        assertEquals(
                new UuidPrefix(whole, whole), UuidPrefix.of(whole.toString()).orElseThrow());
    }

    @Test
    void dashesWhereAUuidHasNoneNameNothing() {
        assertFalse(UuidPrefix.of("0190-c1a2").isPresent());
        assertFalse(UuidPrefix.of("0190c1a20f").isPresent(), "no dash after the 8th digit");
        assertTrue(UuidPrefix.of("0190c1a2").isPresent());
        assertTrue(UuidPrefix.of("0190c1a2-").isPresent());
    }

    /** In PostgreSQL's order of uuids (its bytes, unsigned), as in the text's: what BETWEEN relies on. */
    @Test
    void aUuidIsInTheRangeOfAPrefixExactlyWhenItsTextBeginsWithIt() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            UUID uuid = new UUID(random.nextLong(), random.nextLong());
            String text = uuid.toString();
            String prefix = text.substring(0, 4 + random.nextInt(33));
            UuidPrefix range = UuidPrefix.of(prefix).orElseThrow();
            assertTrue(inRange(uuid, range), prefix + " " + text);
            UUID other = new UUID(random.nextLong(), random.nextLong());
            assertEquals(other.toString().startsWith(prefix), inRange(other, range), prefix + " " + other);
        }
    }

    private static boolean inRange(UUID uuid, UuidPrefix range) {
        return unsigned(uuid, range.lowest()) >= 0 && unsigned(uuid, range.highest()) <= 0;
    }

    private static int unsigned(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
