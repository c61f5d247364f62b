package dev.cairn.api.data;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.StructureData;

/** The data classes a client makes from JSON, by the names of the upload's {@code type}. */
enum DataKind {
    INT(IntData.class),
    FLOAT(FloatData.class),
    STR(StrData.class),
    BOOL(BoolData.class),
    DICT(DictData.class),
    LIST(ListData.class),
    STRUCTURE(StructureData.class);

    private final Class<? extends Data> type;

    DataKind(Class<? extends Data> type) {
        this.type = type;
    }

    Class<? extends Data> type() {
        return type;
    }

    String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static List<String> names() {
        return Arrays.stream(values()).map(DataKind::jsonName).toList();
    }

    static DataKind of(String name) {
        for (DataKind k : values()) {
            if (k.jsonName().equals(name)) {
                return k;
            }
        }
        throw new InvalidInputException("field 'type': unknown data type '" + name + "'; types are " + names()
                + " (files go to POST /api/v1/nodes/files)");
    }
}
