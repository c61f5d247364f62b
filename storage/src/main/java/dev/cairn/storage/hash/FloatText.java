package dev.cairn.storage.hash;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The canonical text of a floating-point value: its exact value rounded to 14 significant
 * digits, half to even, written as {@code [-]d[.ddd]e[-]x} with no trailing zeros in the
 * digits. Examples: 1.0 is {@code 1e0}, 0.1 + 0.2 is {@code 3e-1}, -1234.5 is
 * {@code -1.2345e3}. Zero of either sign is {@code 0e0}: PostgreSQL's {@code jsonb} keeps no
 * sign of zero, so a hash that told them apart would not survive a round trip.
 *
 * <p>Doubles of ordinary magnitude take a fast path: the value is scaled by a power of ten
 * held as a double-double (about 106 bits), the product is kept as a double-double through
 * {@link Math#fma}, and its distance from the rounding midpoint decides the last digit. That
 * distance is known to within about 1e-16 while anything beyond 1e-12 is trusted, so only
 * values that sit on (or within a hair of) a midpoint, subnormals and magnitudes beyond
 * 1e&plusmn;280 go through {@link BigDecimal}, whose rounding defines the result.
 */
final class FloatText {

    static final int SIGNIFICANT_DIGITS = 14;
    /** Enough for any rendering, including a BigDecimal's ten-digit exponent. */
    static final int MAX_LENGTH = 32;

    private static final MathContext ROUNDING = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);
    private static final double LOG10_2 = 0.30102999566398120;
    private static final long TEN_POW_13 = 10_000_000_000_000L;
    private static final long TEN_POW_14 = 100_000_000_000_000L;
    /** How close to the rounding midpoint the fast path still decides (its error is ~1e-16). */
    private static final double TIE_MARGIN = 1e-12;

    private static final int MIN_FAST_E10 = -280;
    private static final int MAX_FAST_E10 = 280;
    /** Scale exponents q: the product is |x| * 10^q; one lower than 13 - MAX for the retry. */
    private static final int Q_MIN = 13 - MAX_FAST_E10 - 1;
    private static final int Q_MAX = 13 - MIN_FAST_E10;
    private static final double[] POW10_HI = new double[Q_MAX - Q_MIN + 1];
    private static final double[] POW10_LO = new double[Q_MAX - Q_MIN + 1];

    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

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

    private FloatText() {
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

    /** The canonical text of a finite double. */
    static String of(double x) {
        byte[] out = new byte[MAX_LENGTH];
        int end = write(x, out, 0);
        return new String(out, 0, end, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The canonical text of a BigDecimal. */
    static String of(BigDecimal x) {
        byte[] out = new byte[MAX_LENGTH];
        int end = write(x, out, 0);
        return new String(out, 0, end, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Writes the canonical ASCII text of a finite double at {@code out[off]}, which must have
     * {@link #MAX_LENGTH} bytes free, and returns the offset after it.
     */
    static int write(double x, byte[] out, int off) {
        if (x == 0) {
            return writeZero(out, off);
        }
        double a = Math.abs(x);
        int e2 = Math.getExponent(a);
        // floor(log10 a) or one less: log10 a lies in [e2 log10 2, (e2 + 1) log10 2).
        int e10 = (int) Math.floor(e2 * LOG10_2);
        if (e2 >= Double.MIN_EXPONENT && e10 >= MIN_FAST_E10 && e10 <= MAX_FAST_E10) {
            // Scale so that the 14 significant digits are the integer part of y = a * 10^q.
            int q = SIGNIFICANT_DIGITS - 1 - e10;
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
                long exponent = SIGNIFICANT_DIGITS - 1 - q;
                if (digits == TEN_POW_14) { // 99999999999999.5 and up rounds to the next decade
                    digits = TEN_POW_13;
                    exponent++;
                }
                return render(x < 0, digits, exponent, out, off);
            }
        }
        return write(new BigDecimal(x), out, off);
    }

    /** As {@link #write(double, byte[], int)} for a BigDecimal (always the exact path). */
    static int write(BigDecimal x, byte[] out, int off) {
        if (x.signum() == 0) {
            return writeZero(out, off);
        }
        BigDecimal rounded = x.round(ROUNDING);
        long digits = rounded.unscaledValue().abs().longValueExact();
        long exponent = (long) rounded.precision() - 1 - rounded.scale();
        for (int n = rounded.precision(); n < SIGNIFICANT_DIGITS; n++) {
            digits *= 10; // render takes exactly 14 digits
        }
        return render(x.signum() < 0, digits, exponent, out, off);
    }

    private static int writeZero(byte[] out, int off) {
        out[off] = '0';
        out[off + 1] = 'e';
        out[off + 2] = '0';
        return off + 3;
    }

    /**
     * Writes {@code [-]d[.ddd]e[-]x} for 14 digits (10^13 &lt;= digits &lt; 10^14) whose first
     * digit has the given decimal exponent, dropping the trailing zeros.
     */
    private static int render(boolean negative, long digits, long exponent, byte[] out, int off) {
        int p = off;
        if (negative) {
            out[p++] = '-';
        }
        // Two halves of 7 digits in int arithmetic, two digits per step: the long divisions of
        // a digit-at-a-time loop were most of the cost of a float.
        int high = (int) (digits / 10_000_000);
        int low = (int) (digits - high * 10_000_000L);
        putSevenDigits(high, out, p + 1);
        putSevenDigits(low, out, p + 8);
        out[p] = out[p + 1]; // first digit, then the point
        out[p + 1] = '.';
        int last = p + 14;
        while (last > p + 1 && out[last] == '0') {
            last--;
        }
        p = last == p + 1 ? p + 1 : last + 1; // no fraction digits left: no point either
        out[p++] = 'e';
        if (exponent < 0) {
            out[p++] = '-';
            exponent = -exponent;
        }
        int count = 1;
        for (long rest = exponent; rest >= 10; rest /= 10) {
            count++;
        }
        for (int i = p + count - 1; i >= p; i--) {
            out[i] = (byte) ('0' + exponent % 10);
            exponent /= 10;
        }
        return p + count;
    }

    /** Writes 0 &lt;= v &lt; 10^7 as exactly seven digits at {@code out[at]}. */
    private static void putSevenDigits(int v, byte[] out, int at) {
        for (int i = at + 5; i > at; i -= 2) {
            int q = v / 100;
            int pair = (v - q * 100) * 2;
            out[i] = DIGIT_PAIRS[pair];
            out[i + 1] = DIGIT_PAIRS[pair + 1];
            v = q;
        }
        out[at] = (byte) ('0' + v);
    }
}
