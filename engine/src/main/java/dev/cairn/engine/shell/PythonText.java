package dev.cairn.engine.shell;

import java.math.BigDecimal;

import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;

/**
 * A value node as text on a command line, spelt as Python's {@code str()} spells it, so that a
 * shell job's command line is the one aiida-shell would run: {@code 3}, {@code 2.5}, {@code 1e-05},
 * {@code 10000000000.0}, {@code True}, and a string as it is.
 */
final class PythonText {

    private PythonText() {}

    /** Whether {@code node} has a text form: an Int, Float, Str or Bool. */
    static boolean hasText(Node node) {
        return node instanceof IntData
                || node instanceof FloatData
                || node instanceof StrData
                || node instanceof BoolData;
    }

    /** The text of a node {@link #hasText} accepts. */
    static String of(Node node) {
        return switch (node) {
            case IntData i -> Long.toString(i.value());
            case FloatData f -> ofDouble(f.value());
            case StrData s -> s.value();
            case BoolData b -> b.value() ? "True" : "False";
            default -> throw new IllegalArgumentException(node.describe() + " has no text form");
        };
    }

    /**
     * Python's {@code repr} of a float: the shortest digits that read back as the same double (as
     * Java's {@code Double.toString} finds them), positional from 1e-4 up to 1e16, scientific
     * outside, with at least one digit after the point. Stored floats are finite.
     */
    static String ofDouble(double value) {
        if (value == 0) {
            return (1 / value) < 0 ? "-0.0" : "0.0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        String digits = shortest.unscaledValue().abs().toString();
        // the decimal exponent of the first digit: value = d.ddd × 10^exponent
        int exponent = digits.length() - 1 - shortest.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
            return sign + mantissa + "e" + e;
        }
        String plain = shortest.abs().toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }
}
