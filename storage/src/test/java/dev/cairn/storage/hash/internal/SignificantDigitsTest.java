package dev.cairn.storage.hash.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SignificantDigitsTest {

    private static final MathContext FOURTEEN_HALF_EVEN = new MathContext(14, RoundingMode.HALF_EVEN);

    /** "s e" as the fast path gives it. */
    private static String rounded(double x) {
        long packed = SignificantDigits.round(x);
        return SignificantDigits.significand(packed) + " " + SignificantDigits.exponent(packed);
    }

    /** "s e" by the definition: BigDecimal's exact value rounded half-even, trailing zeros stripped. */
    private static String reference(double x) {
        if (x == 0) {
            return "0 0";
        }
        BigDecimal r = new BigDecimal(x).round(FOURTEEN_HALF_EVEN).stripTrailingZeros();
        return r.unscaledValue() + " " + -r.scale();
    }

    private static void assertMatchesReference(double x) {
        assertEquals(
                reference(x),
                rounded(x),
                () -> "for " + x + " (bits " + Long.toHexString(Double.doubleToRawLongBits(x)) + ")");
    }

    @Test
    void powersOfTenTableIsAccurateToFarBeyondWhatRoundingNeeds() {
        for (int q = SignificantDigits.minScale(); q <= SignificantDigits.maxScale(); q++) {
            double[] p = SignificantDigits.powerOfTen(q);
            BigDecimal exact = BigDecimal.ONE.scaleByPowerOfTen(q);
            BigDecimal error = new BigDecimal(p[0])
                    .add(new BigDecimal(p[1]))
                    .subtract(exact)
                    .abs();
            // 2^-90 relative: the fast path needs better than 1e-26 (1e-12 out of 1e14).
            int power = q;
            assertTrue(
                    error.compareTo(exact.multiply(new BigDecimal(Math.scalb(1.0, -90)))) < 0,
                    () -> "10^" + power + " is off by " + error);
            assertEquals(exact.doubleValue(), p[0], "the high part is 10^" + q + " rounded");
        }
    }

    @Test
    void roundsExamplesToLowestTerms() {
        assertEquals("1 0", rounded(1.0));
        assertEquals("2 0", rounded(2.0));
        assertEquals("3 -1", rounded(0.3));
        assertEquals("3 -1", rounded(0.1 + 0.2));
        assertEquals("1 0", rounded(1.0000000000000001));
        assertEquals("-12345 -1", rounded(-1234.5));
        assertEquals("543 -2", rounded(5.43));
        assertEquals("33333333333333 -14", rounded(1.0 / 3));
        assertEquals("66666666666667 -14", rounded(2.0 / 3));
        assertEquals("1 22", rounded(1e22));
        assertEquals("17976931348623 295", rounded(Double.MAX_VALUE));
        assertEquals("49406564584125 -337", rounded(Double.MIN_VALUE));
        // The exact value decides, not the shortest decimal: the double nearest
        // 1.23456789012345e-5 lies just above that midpoint, the one nearest ...e-7 just below.
        assertEquals("12345678901235 -18", rounded(1.23456789012345e-5));
        assertEquals("12345678901234 -20", rounded(1.23456789012345e-7));
    }

    @Test
    void zeroOfEitherSignIsZero() {
        assertEquals("0 0", rounded(0.0));
        assertEquals("0 0", rounded(-0.0));
        assertEquals(BigDecimal.ZERO, SignificantDigits.round(new BigDecimal("-0.000")));
    }

    @Test
    void exactTiesRoundHalfToEven() {
        // 15-digit integers are exact doubles, so these are true ties at the 14th digit.
        assertEquals("1 14", rounded(100_000_000_000_005.0));
        assertEquals("10000000000002 1", rounded(100_000_000_000_015.0));
        assertEquals("-10000000000002 1", rounded(-100_000_000_000_015.0));
        assertEquals("1 14", rounded(99_999_999_999_999.5));
        assertEquals("25 -1", rounded(2.5));
    }

    @Test
    void agreesWithCPythonsCorrectlyRoundedFormatting() throws IOException {
        int checked = 0;
        try (var in = new BufferedReader(new InputStreamReader(
                Objects.requireNonNull(getClass().getResourceAsStream("significant-digits-python.txt")),
                StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split(" ", 2);
                double x = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
                assertEquals(parts[1], rounded(x), "for " + x + " (bits " + parts[0] + ")");
                checked++;
            }
        }
        assertEquals(1067, checked);
    }

    @Test
    void agreesWithBigDecimalOnRandomBitPatterns() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 30_000; i++) {
            double x = Double.longBitsToDouble(random.nextLong());
            if (Double.isFinite(x)) {
                assertMatchesReference(x);
            }
        }
    }

    @Test
    void agreesWithBigDecimalOnOrdinaryMagnitudes() {
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 200_000; i++) {
            double x = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-30, 31));
            assertMatchesReference(x);
        }
        for (int i = 0; i < 20_000; i++) { // few digits: trailing zeros to strip
            assertMatchesReference(random.nextInt(-100_000, 100_000) / Math.pow(10, random.nextInt(0, 8)));
        }
    }

    @Test
    void agreesWithBigDecimalNearTiesAndDecades() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            // A 15-digit decimal ending in 5 lies within an ulp of a rounding midpoint.
            long digits = random.nextLong(10_000_000_000_000L, 100_000_000_000_000L) * 10 + 5;
            double x = Double.parseDouble(digits + "e" + random.nextInt(-337, 294));
            assertMatchesReference(x);
            assertMatchesReference(Math.nextUp(x));
            assertMatchesReference(Math.nextDown(x));
        }
        for (int e = -323; e <= 308; e++) {
            double x = Double.parseDouble("1e" + e);
            assertMatchesReference(x);
            assertMatchesReference(Math.nextUp(x));
            assertMatchesReference(Math.nextDown(x));
            if (e < 308) { // 9.99...e308 overflows
                assertMatchesReference(-Double.parseDouble("9.99999999999995e" + e));
                assertMatchesReference(Double.parseDouble("9.999999999999949e" + e));
            }
        }
    }

    @Test
    void agreesWithBigDecimalOnSubnormalsAndExtremes() {
        SplittableRandom random = new SplittableRandom(4);
        for (int i = 0; i < 10_000; i++) {
            assertMatchesReference(Double.longBitsToDouble(random.nextLong(1, 0x0010_0000_0000_0000L)));
        }
        for (double x : new double[] {
            Double.MIN_VALUE,
            Double.MIN_NORMAL,
            Math.nextDown(Double.MIN_NORMAL),
            Double.MAX_VALUE,
            -Double.MAX_VALUE,
            1e-281,
            1e-280,
            1e280,
            1e281,
            9.9e280
        }) {
            assertMatchesReference(x);
        }
    }

    @Test
    void floatsAreRoundedByTheirExactValue() {
        assertEquals("10000000149012 -14", rounded((double) 0.1f));
        assertEquals(reference((double) 0.1f), rounded((double) 0.1f));
    }

    @Test
    void bigDecimalsRoundLikeDoubles() {
        assertEquals(new BigDecimal("0.3"), SignificantDigits.round(new BigDecimal("0.3")));
        assertEquals(new BigDecimal("2"), SignificantDigits.round(new BigDecimal("2.000")));
        assertEquals(
                new BigDecimal("1.2345678901234e-400"),
                SignificantDigits.round(new BigDecimal("1.23456789012345e-400")));
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            double x = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-20, 21));
            BigDecimal viaBigDecimal = SignificantDigits.round(new BigDecimal(x));
            assertEquals(rounded(x), viaBigDecimal.unscaledValue() + " " + -viaBigDecimal.scale(), () -> "for " + x);
        }
        BigDecimal huge = new BigDecimal(BigInteger.TEN.pow(30).add(BigInteger.ONE), -5);
        assertEquals(new BigDecimal(BigInteger.ONE, -35), SignificantDigits.round(huge));
    }
}
