package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.db.JsonCodec;

/** The fast decoder reads exactly what Jackson (through {@link JsonCodec}) reads. */
class JsonDecoderTest {

    private static Object decode(String json) {
        return JsonDecoder.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static void sameAsJackson(String json) {
        assertEquals(JsonCodec.read(json), decode(json), json);
    }

    @Test
    void valuesOfEveryType() {
        for (String json : List.of(
                "{}",
                "[]",
                "null",
                "true",
                "false",
                "0",
                "-0",
                "1",
                "-17",
                "9223372036854775807",
                "-9223372036854775808",
                "1.0",
                "-0.0",
                "2.5",
                "0.000001",
                "1e3",
                "1E-3",
                "-2.5e+10",
                "123456789012345678.5",
                "0.1",
                "3.141592653589793",
                "\"\"",
                "\"a b\"",
                "\"caf\u00e9 \u4e16\u754c\"",
                "\"tab\\t quote\\\" slash\\/ back\\\\ \\u00e9 \\ud83d\\ude00 nl\\n\"",
                "{\"a\": {\"b\": [1, 2, {\"c\": \"x\"}]}, \"list\": [], \"obj\": {}, \"nul\": null}",
                " [ 1 , [ [ ] ] , { \"k\" : [ true , false , null ] } ] ",
                "{\"cell\": [[11.0, 0.0, 0.0], [0.1, 11.0, 0.0], [-0.25, 0.5, 11.0]], \"pbc1\": true}")) {
            sameAsJackson(json);
        }
    }

    @Test
    void integersBeyondLongAreBigIntegers() {
        assertEquals(new BigInteger("92233720368547758070"), decode("92233720368547758070"));
        assertEquals(-9223372036854775807L - 1, decode("-9223372036854775808"));
    }

    @Test
    void randomDoublesReadBackExactly() {
        Random rng = new Random(1);
        for (int k = 0; k < 200_000; k++) {
            double d = switch (k % 4) {
                case 0 -> rng.nextDouble() * 12;
                case 1 -> (rng.nextDouble() - 0.5) * Math.pow(10, rng.nextInt(40) - 20);
                case 2 -> Double.longBitsToDouble(rng.nextLong());
                default -> Math.round(rng.nextDouble() * 1e6) / 1e3;
            };
            if (!Double.isFinite(d)) {
                continue;
            }
            // the database prints numbers as plain decimals; Java's shortest form too
            String plain = new BigDecimal(Double.toString(d)).toPlainString();
            String json = plain.contains(".") ? plain : plain + ".0";
            assertEquals(Double.parseDouble(json), decode(json), json);
            assertEquals(d, decode(Double.toString(d)), Double.toString(d));
        }
    }

    @Test
    void repeatedKeysComeFromTheCacheWithTheRightText() {
        assertEquals(
                List.of(Map.of("kind_name", "Ba"), Map.of("kind_nbme", "O")),
                decode("[{\"kind_name\": \"Ba\"}, {\"kind_nbme\": \"O\"}]"));
        assertEquals(Map.of("caf\u00e9", 1L, "a\"b", 2L), decode("{\"caf\u00e9\": 1, \"a\\\"b\": 2}"));
    }

    @Test
    void malformedInputIsRefused() {
        for (String json : List.of("", "{", "[1,", "{\"a\" 1}", "tru", "\"open", "1 2", "-", "1e", "{1: 2}")) {
            assertThrows(IllegalStateException.class, () -> decode(json), json);
        }
    }
}
