package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class Utf8OrderTest {

    private static final int[] CODE_POINTS = {
        'a', 'b', 'z', 'A', '_', '.', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F9EA,
        0x10FFFF
    };

    private static String randomString(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(0, 5);
        for (int i = 0; i < length; i++) {
            s.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
        }
        return s.toString();
    }

    @Test
    void ordersLikeUnsignedUtf8Bytes() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            String a = randomString(random);
            String b = randomString(random);
            int expected =
                    Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
            assertEquals(Integer.signum(expected), Integer.signum(Utf8Order.compare(a, b)), () -> a + " vs " + b);
        }
    }

    @Test
    void supplementaryCharactersSortAfterTheTopOfTheBasicPlane() {
        // UTF-16 order would put U+1F9EA (a surrogate pair, D83E DDEA) before U+E000.
        assertTrue("\uD83E\uDDEA".compareTo("\uE000") < 0);
        assertTrue(Utf8Order.compare("\uD83E\uDDEA", "\uE000") > 0);
    }
}
