package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * JSON text (UTF-8 bytes, as the database sends {@code jsonb}) to the plain Java values of
 * {@link dev.cairn.storage.db.JsonCodec}: maps, lists, {@code Long}, {@code Double},
 * {@code String}, {@code Boolean}, {@code null}. Straight from the token stream, with no data
 * binding in between and the fast floating-point parser, since large projections spend most
 * of their time here.
 */
final class JsonDecoder {

    private static final JsonFactory FACTORY = JsonFactory.builder()
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .build();

    private JsonDecoder() {
    }

    static Object decode(byte[] json) {
        if (json == null)
            return null;
        try (JsonParser parser = FACTORY.createParser(json)) {
            return value(parser, parser.nextToken());
        } catch (JacksonException e) {
            throw new IllegalStateException("the database sent JSON that does not parse: " + e.getOriginalMessage(), e);
        }
    }

    private static Object value(JsonParser p, JsonToken token) {
        return switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                String name;
                while ((name = p.nextName()) != null)
                    map.put(name, value(p, p.nextToken()));
                yield map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY)
                    list.add(value(p, t));
                yield list;
            }
            case VALUE_STRING -> p.getString();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                ? (Object) p.getBigIntegerValue() : (Object) p.getLongValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IllegalStateException("unexpected JSON token " + token);
        };
    }
}
