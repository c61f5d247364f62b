package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FloatTextTest {

    private static final MathContext FOURTEEN_HALF_EVEN = new MathContext(14, RoundingMode.HALF_EVEN);

    /** The definition: BigDecimal's exact value rounded half-even, formatted by string handling. */
    private static String reference(double x) {
        return x == 0 ? "0e0" : reference(new BigDecimal(x));
    }

    private static String reference(BigDecimal x) {
        if (x.signum() == 0) {
            return "0e0";
        }
        BigDecimal r = x.round(FOURTEEN_HALF_EVEN).stripTrailingZeros();
        String digits = r.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - 1 - r.scale();
        return (x.signum() < 0 ? "-" : "") + digits.charAt(0)
                + (digits.length() > 1 ? "." + digits.substring(1) : "") + "e" + exponent;
    }

    private static void assertMatchesReference(double x) {
        assertEquals(reference(x), FloatText.of(x), () -> "for " + x + " (bits " + Long.toHexString(Double.doubleToRawLongBits(x)) + ")");
    }

    @Test
    void powersOfTenTableIsAccurateToFarBeyondWhatRoundingNeeds() {
        for (int q = FloatText.minScale(); q <= FloatText.maxScale(); q++) {
            double[] p = FloatText.powerOfTen(q);
            BigDecimal exact = BigDecimal.ONE.scaleByPowerOfTen(q);
            BigDecimal error = new BigDecimal(p[0]).add(new BigDecimal(p[1])).subtract(exact).abs();
            // 2^-90 relative: the fast path needs better than 1e-26 (1e-12 out of 1e14).
            assertEquals(-1, error.compareTo(exact.multiply(new BigDecimal(Math.scalb(1.0, -90)))),
                    () -> "10^" + error);
            assertEquals(p[0], exact.doubleValue(), "the high part is 10^" + q + " rounded");
        }
    }

    @Test
    void rendersExamplesInTheDocumentedForm() {
        assertEquals("1e0", FloatText.of(1.0));
        assertEquals("2e0", FloatText.of(2.0));
        assertEquals("3e-1", FloatText.of(0.3));
        assertEquals("3e-1", FloatText.of(0.1 + 0.2));
        assertEquals("1e0", FloatText.of(1.0000000000000001));
        assertEquals("-1.2345e3", FloatText.of(-1234.5));
        assertEquals("3.3333333333333e-1", FloatText.of(1.0 / 3));
        assertEquals("6.6666666666667e-1", FloatText.of(2.0 / 3));
        assertEquals("1e22", FloatText.of(1e22));
        assertEquals("1.7976931348623e308", FloatText.of(Double.MAX_VALUE));
        assertEquals("4.9406564584125e-324", FloatText.of(Double.MIN_VALUE));
        assertEquals("1.2345678901235e-5", FloatText.of(1.23456789012345e-5));
    }

    @Test
    void zeroOfEitherSignIsZero() {
        assertEquals("0e0", FloatText.of(0.0));
        assertEquals("0e0", FloatText.of(-0.0));
        assertEquals("0e0", FloatText.of(BigDecimal.ZERO));
        assertEquals("0e0", FloatText.of(new BigDecimal("-0.000")));
    }

    @Test
    void exactTiesRoundHalfToEven() {
        // 15-digit integers are exact doubles, so these are true ties at the 14th digit.
        assertEquals("1e14", FloatText.of(100_000_000_000_005.0));
        assertEquals("1.0000000000002e14", FloatText.of(100_000_000_000_015.0));
        assertEquals("-1.0000000000002e14", FloatText.of(-100_000_000_000_015.0));
        assertEquals("1e14", FloatText.of(99_999_999_999_999.5));
        assertEquals("2.5e0", FloatText.of(2.5));
    }

    @Test
    void agreesWithCPythonsCorrectlyRoundedFormatting() throws IOException {
        int checked = 0;
        try (var in = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                getClass().getResourceAsStream("float-text-python.txt")), StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split(" ");
                double x = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
                assertEquals(parts[1], FloatText.of(x), "for " + x + " (bits " + parts[0] + ")");
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
        for (double x : new double[] {Double.MIN_VALUE, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL),
                Double.MAX_VALUE, -Double.MAX_VALUE, 1e-281, 1e-280, 1e280, 1e281, 9.9e280}) {
            assertMatchesReference(x);
        }
    }

    @Test
    void floatsAreRenderedByTheirExactValue() {
        assertEquals(reference((double) 0.1f), FloatText.of((double) 0.1f));
        assertEquals("1.0000000149012e-1", FloatText.of((double) 0.1f));
    }

    @Test
    void bigDecimalsRoundLikeDoubles() {
        assertEquals(FloatText.of(0.3), FloatText.of(new BigDecimal("0.3")));
        assertEquals("2e0", FloatText.of(new BigDecimal("2")));
        assertEquals("2e0", FloatText.of(new BigDecimal("2.000")));
        assertEquals("1.2345678901234e-400", FloatText.of(new BigDecimal("1.23456789012345e-400")));
        assertEquals("-1e2147483648", FloatText.of(new BigDecimal(java.math.BigInteger.ONE, Integer.MIN_VALUE).negate()));
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            BigDecimal x = new BigDecimal(java.math.BigInteger.valueOf(random.nextLong()), random.nextInt(-50, 50));
            assertEquals(reference(x), FloatText.of(x), x::toString);
        }
    }
}
