package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The kinds of row a query path can visit. Links are reached as the edges between nodes. */
public enum EntityType {
    NODE(Table.NODE),
    GROUP(Table.GROUP),
    COMPUTER(Table.COMPUTER),
    USER(Table.USER),
    COMMENT(Table.COMMENT),
    LOG(Table.LOG);

    private final Table table;

    EntityType(Table table) {
        this.table = table;
    }

    Table table() {
        return table;
    }

    /** The name in a query's JSON form: {@code node}, {@code group}, ... */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The columns a query may filter on and project, in table order. */
    static List<String> jsonNames() {
        return Arrays.stream(values()).map(EntityType::jsonName).toList();
    }

    static EntityType fromJsonName(String name, String where) {
        for (EntityType t : values()) {
            if (t.jsonName().equals(name)) {
                return t;
            }
        }
        throw new InvalidQueryException(
                where + ": unknown entity type '" + name + "'; entity types are " + jsonNames());
    }
}
