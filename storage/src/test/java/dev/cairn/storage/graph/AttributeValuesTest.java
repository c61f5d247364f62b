package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class AttributeValuesTest {

    @Test
    void floatsKeepFourteenSignificantDigitsRoundedHalfEvenOnTheExactValue() {
        SplittableRandom random = new SplittableRandom(3);
        MathContext fourteen = new MathContext(14, RoundingMode.HALF_EVEN);
        for (int i = 0; i < 200_000; i++) {
            double d = switch (i % 6) {
                case 0 -> random.nextDouble(-1e3, 1e3);
                case 1 -> Double.longBitsToDouble(random.nextLong()); // any exponent
                case 2 ->
                    new BigDecimal(random.nextDouble())
                            .round(new MathContext(1 + random.nextInt(16)))
                            .doubleValue();
                // the double nearest a 14-digit rounding midpoint, at magnitudes on both sides of 1e±22
                case 3 ->
                    Double.parseDouble(random.nextLong(10_000_000_000_000L, 100_000_000_000_000L) + "5e"
                            + random.nextInt(-40, 40));
                case 4 -> Double.MIN_VALUE * random.nextInt(1, 1 << 30); // subnormal and just above
                default -> random.nextInt(-1000, 1000) / 8.0;
            };
            if (Double.isNaN(d) || Double.isInfinite(d) || d == 0) {
                continue;
            }
            double expected = new BigDecimal(d).round(fourteen).doubleValue();
            assertEquals(expected, AttributeValues.cleanDouble(d, "x"), () -> "for " + d);
        }
        assertEquals(0.3, AttributeValues.clean(0.1 + 0.2, "x"));
        assertEquals(1.0, AttributeValues.clean(1.0000000000000002, "x"));
        assertEquals(0.0, AttributeValues.clean(-0.0, "x"));
        assertEquals(Double.valueOf(2.0), AttributeValues.clean(2.0, "x"), "an integral float stays a float");
    }

    @Test
    void integersWidenToLongAndMustFit() {
        assertEquals(5L, AttributeValues.clean(5, "x"));
        assertEquals(5L, AttributeValues.clean((short) 5, "x"));
        assertEquals(Long.MAX_VALUE, AttributeValues.clean(BigInteger.valueOf(Long.MAX_VALUE), "x"));
        InvalidValueException e = assertThrows(
                InvalidValueException.class, () -> AttributeValues.clean(BigInteger.TWO.pow(64), "attributes.n"));
        assertTrue(e.getMessage().startsWith("attributes.n: integer"), e.getMessage());
    }

    @Test
    void containersAreCopiedIntoUnmodifiableOnes() {
        Map<String, Object> inner = new HashMap<>(Map.of("a", 1));
        List<Object> list = new ArrayList<>(List.of(inner));
        Map<String, Object> cleaned = AttributeValues.cleanMap(Map.of("l", list), "attributes");
        inner.put("b", 2);
        list.add(3);
        assertEquals(Map.of("l", List.of(Map.of("a", 1L))), cleaned);
        assertThrows(UnsupportedOperationException.class, () -> cleaned.put("x", 1));
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) cleaned.get("l")).clear());
    }

    @Test
    void badValuesNameTheirPath() {
        assertTrue(assertThrows(
                        InvalidValueException.class,
                        () -> AttributeValues.clean(Map.of("k", List.of(1, Double.NEGATIVE_INFINITY)), "attributes"))
                .getMessage()
                .startsWith("attributes.k[1]: -Infinity"));
        assertTrue(assertThrows(
                        InvalidValueException.class,
                        () -> AttributeValues.clean(Map.of("x", Map.of("a.b", 1)), "extras"))
                .getMessage()
                .contains("extras.x: key 'a.b' contains '.'"));
        assertTrue(assertThrows(InvalidValueException.class, () -> AttributeValues.clean(Map.of(1, 1), "attributes"))
                .getMessage()
                .contains("keys must be strings"));
        assertTrue(assertThrows(InvalidValueException.class, () -> AttributeValues.clean(new Object(), "attributes.o"))
                .getMessage()
                .contains("java.lang.Object"));
    }
}
