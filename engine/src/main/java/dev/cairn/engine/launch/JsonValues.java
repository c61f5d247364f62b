package dev.cairn.engine.launch;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

import dev.cairn.storage.errors.InvalidInputException;

/** Small readings of JSON values shared by the decoders: what a value is, references, plain values. */
final class JsonValues {

    /** A uuid in its canonical text form, any case (the pattern of the input schema's references too). */
    static final String UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

    private static final Pattern UUID_TEXT = Pattern.compile(UUID_PATTERN);

    private JsonValues() {}

    /** What a JSON value is, for a message: "a string", "an integer", "an object with keys [a, b]". */
    static String describe(JsonNode json) {
        return switch (json.getNodeType()) {
            case NULL -> "null";
            case BOOLEAN -> "a boolean";
            case NUMBER -> json.isIntegralNumber() ? "an integer" : "a number";
            case STRING -> "a string";
            case ARRAY -> "an array";
            case OBJECT ->
                json.isEmpty() ? "an empty object" : "an object with keys " + new TreeSet<>(json.propertyNames());
            default -> json.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /**
     * A JSON integer as JSON Schema's {@code integer} has it: any number with no fractional part
     * ({@code 2.0} is 2); null for anything else.
     *
     * @throws InvalidInputException when it does not fit in 64 bits
     */
    static Long integer(JsonNode json) {
        if (!json.isNumber()) {
            return null;
        }
        if (json.isIntegralNumber()) {
            if (!json.canConvertToLong()) {
                throw new InvalidInputException(json + " does not fit in 64 bits");
            }
            return json.longValue();
        }
        if (!Double.isFinite(json.doubleValue())) {
            throw new InvalidInputException(json + " does not fit in 64 bits");
        }
        BigDecimal exact = json.decimalValue();
        if (exact.stripTrailingZeros().scale() > 0) {
            return null;
        }
        try {
            return exact.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidInputException(json + " does not fit in 64 bits");
        }
    }

    /** Whether a value names a stored thing by uuid: an object whose one key is {@code uuid}. */
    static boolean isReference(JsonNode json) {
        return json.isObject() && json.size() == 1 && json.has("uuid");
    }

    /** The uuid of a reference, or null after adding what is wrong with it to {@code problems}. */
    static UUID uuid(JsonNode reference, String where, List<String> problems) {
        JsonNode text = reference.get("uuid");
        if (!text.isString()) {
            problems.add(where + ": a uuid is a string, got " + describe(text));
            return null;
        }
        if (!UUID_TEXT.matcher(text.stringValue()).matches()) {
            problems.add(where + ": '" + abbreviated(text.stringValue()) + "' is not a uuid");
            return null;
        }
        return UUID.fromString(text.stringValue());
    }

    /**
     * The plain Java form of a JSON value, as attributes hold them: maps, lists, strings,
     * booleans, null and numbers (integers as {@code Long}, or {@code BigInteger} beyond it,
     * which the graph refuses, naming where).
     */
    static Object plain(JsonNode json) {
        return switch (json.getNodeType()) {
            case OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                json.properties().forEach(e -> map.put(e.getKey(), plain(e.getValue())));
                yield map;
            }
            case ARRAY -> {
                List<Object> list = new ArrayList<>(json.size());
                json.values().forEach(v -> list.add(plain(v)));
                yield list;
            }
            case NUMBER ->
                json.isIntegralNumber() && json.canConvertToLong() ? (Object) json.longValue() : json.numberValue();
            case STRING -> json.stringValue();
            case BOOLEAN -> json.booleanValue();
            default -> null;
        };
    }

    /** "a" or "an" before a class name. */
    static String article(String name) {
        return "AEIOUaeiou".indexOf(name.charAt(0)) >= 0 ? "an " + name : "a " + name;
    }

    static String abbreviated(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
