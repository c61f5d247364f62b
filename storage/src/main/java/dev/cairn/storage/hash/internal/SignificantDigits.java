package dev.cairn.storage.hash.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A floating-point value as the hash sees it: its exact value rounded to 14 significant
 * digits, half to even, as the decimal {@code s * 10^e} in lowest terms ({@code s} has no
 * trailing zero digit). 1.0 is (1, 0), 0.1 + 0.2 is (3, -1), -1234.5 is (-12345, -1). Zero of
 * either sign is (0, 0): PostgreSQL's {@code jsonb} keeps no sign of zero, so a hash that told
 * them apart would not survive a round trip.
 *
 * <p>Doubles of ordinary magnitude take a fast path: the value is scaled by a power of ten
 * held as a double-double (about 100 bits), the product is kept as a double-double through
 * {@link Math#fma}, and its distance from the rounding midpoint decides the last digit. That
 * distance is known to within about 1e-15 while only a distance beyond 1e-12 is trusted, so
 * values that sit on (or within a hair of) a midpoint, subnormals and magnitudes beyond
 * 1e&plusmn;280 go through {@link BigDecimal}, whose rounding defines the result.
 *
 * <p>For a double the result is packed in one long (see {@link #significand} and
 * {@link #exponent}) so that hashing allocates nothing per value.
 */
public final class SignificantDigits {

    public static final int DIGITS = 14;

    private static final MathContext ROUNDING = new MathContext(DIGITS, RoundingMode.HALF_EVEN);
    private static final long TEN_POW_13 = 10_000_000_000_000L;
    private static final long TEN_POW_14 = 100_000_000_000_000L;
    /** How close to the rounding midpoint the fast path still decides (its error is ~1e-15). */
    private static final double TIE_MARGIN = 1e-12;

    private static final int MIN_FAST_E10 = -280;
    private static final int MAX_FAST_E10 = 280;
    /** Scale exponents q: the product is |x| * 10^q; one lower than 13 - MAX for the retry. */
    private static final int Q_MIN = DIGITS - 1 - MAX_FAST_E10 - 1;

    private static final int Q_MAX = DIGITS - 1 - MIN_FAST_E10;
    private static final double[] POW10_HI = new double[Q_MAX - Q_MIN + 1];
    private static final double[] POW10_LO = new double[Q_MAX - Q_MIN + 1];

    /** Powers of ten that a double holds exactly. */
    private static final double[] EXACT_POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22
    };

    /** Packing: the exponent of a double's result lies in [-337, 308]; biased into 10 bits. */
    private static final int EXPONENT_BITS = 10;

    private static final int EXPONENT_BIAS = 512;

    static {
        // Double-double powers of ten by repeated exact-product steps from 10^0. Each step adds
        // an error of about 2^-104 relative, so after 300 steps the table is still good to
        // ~2^-95: the scaled value is off by ~1e-15 at most, far inside TIE_MARGIN.
        int zero = -Q_MIN;
        POW10_HI[zero] = 1;
        for (int i = zero + 1; i < POW10_HI.length; i++) {
            double p = POW10_HI[i - 1] * 10;
            double error = Math.fma(POW10_HI[i - 1], 10, -p) + POW10_LO[i - 1] * 10;
            POW10_HI[i] = p + error;
            POW10_LO[i] = error - (POW10_HI[i] - p);
        }
        for (int i = zero - 1; i >= 0; i--) {
            double quotient = POW10_HI[i + 1] / 10;
            double remainder = Math.fma(-quotient, 10, POW10_HI[i + 1]); // exact
            double low = (remainder + POW10_LO[i + 1]) / 10;
            POW10_HI[i] = quotient + low;
            POW10_LO[i] = low - (POW10_HI[i] - quotient);
        }
    }

    private SignificantDigits() {}

    /** A finite double rounded, packed; read it with {@link #significand} and {@link #exponent}. */
    public static long round(double x) {
        if (x == 0) {
            return pack(0, 0);
        }
        double a = Math.abs(x);
        int e2 = Math.getExponent(a);
        // floor(e2 log10 2), which is floor(log10 a) or one less; 78913 / 2^18 is close enough
        // to log10 2 for this to be exact over the whole exponent range of a double.
        int e10 = (e2 * 78913) >> 18;
        if (e2 >= Double.MIN_EXPONENT && e10 >= MIN_FAST_E10 && e10 <= MAX_FAST_E10) {
            // Scale so that the 14 significant digits are the integer part of y = a * 10^q.
            int q = DIGITS - 1 - e10;
            double hi = POW10_HI[q - Q_MIN];
            double yh = a * hi;
            if (yh >= 1e14) { // the estimate of e10 was one too low
                q--;
                hi = POW10_HI[q - Q_MIN];
                yh = a * hi;
            }
            // y = yh + yl to ~1e-17: the exact rounding error of a*hi plus the low part's share.
            double yl = Math.fma(a, hi, -yh) + a * POW10_LO[q - Q_MIN];
            double floor = Math.floor(yh);
            // yh - floor and the 0.5 subtraction are exact; one rounding when adding yl.
            double aboveMidpoint = (yh - floor - 0.5) + yl;
            if (Math.abs(aboveMidpoint) > TIE_MARGIN) {
                long digits = (long) floor + (aboveMidpoint > 0 ? 1 : 0);
                int exponent = -q;
                if (digits == TEN_POW_14) { // 99999999999999.5 and up rounds to the next decade
                    digits = TEN_POW_13;
                    exponent++;
                }
                return lowestTerms(x < 0 ? -digits : digits, exponent);
            }
        }
        BigDecimal exact = round(new BigDecimal(x));
        return pack(exact.unscaledValue().longValueExact(), -exact.scale());
    }

    /**
     * The double nearest to {@code x} rounded to 14 significant digits (half to even on its exact
     * value): what {@code new BigDecimal(x).round(14 digits, HALF_EVEN).doubleValue()} gives, at a
     * small fraction of its cost. Zero of either sign gives 0.0.
     */
    public static double rounded(double x) {
        long packed = round(x);
        long s = significand(packed);
        int e = exponent(packed);
        if (s == 0) {
            return 0.0;
        }
        // |s| < 10^14 < 2^53 and 10^|e| for |e| <= 22 are exact doubles, so one IEEE operation
        // rounds their exact product or quotient once, to nearest: the correctly rounded value.
        if (e >= 0 && e < EXACT_POW10.length) {
            return s * EXACT_POW10[e];
        }
        if (e < 0 && -e < EXACT_POW10.length) {
            return s / EXACT_POW10[-e];
        }
        return new BigDecimal(BigInteger.valueOf(s), -e).doubleValue();
    }

    /** A BigDecimal rounded the same way, in lowest terms: unscaled value s, scale -e. */
    public static BigDecimal round(BigDecimal x) {
        if (x.signum() == 0) {
            return BigDecimal.ZERO;
        }
        return x.round(ROUNDING).stripTrailingZeros();
    }

    public static long significand(long packed) {
        return packed >> EXPONENT_BITS;
    }

    public static int exponent(long packed) {
        return (int) (packed & ((1 << EXPONENT_BITS) - 1)) - EXPONENT_BIAS;
    }

    /** Drops trailing zeros of a 14-digit significand: at most 13, removed 8, 4, 2, 1 at a time. */
    private static long lowestTerms(long significand, int exponent) {
        if (significand % 10 != 0) { // a value with all 14 digits: the common case for measured data
            return pack(significand, exponent);
        }
        if (significand % 100_000_000 == 0) {
            significand /= 100_000_000;
            exponent += 8;
        }
        if (significand % 10_000 == 0) {
            significand /= 10_000;
            exponent += 4;
        }
        if (significand % 100 == 0) {
            significand /= 100;
            exponent += 2;
        }
        if (significand % 10 == 0) {
            significand /= 10;
            exponent += 1;
        }
        return pack(significand, exponent);
    }

    private static long pack(long significand, int exponent) {
        return significand << EXPONENT_BITS | (exponent + EXPONENT_BIAS);
    }

    /** 10^q as a double-double {hi, lo}, for tests of the table. */
    static double[] powerOfTen(int q) {
        return new double[] {POW10_HI[q - Q_MIN], POW10_LO[q - Q_MIN]};
    }

    static int minScale() {
        return Q_MIN;
    }

    static int maxScale() {
        return Q_MAX;
    }
}
