package dev.cairn.api.query;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.graph.NodeRecord;
import dev.cairn.storage.query.EntityRow;
import dev.cairn.storage.query.Projection;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.UndecodedJson;
import dev.cairn.storage.query.UndecodedString;

/**
 * Query rows as JSON, written straight to a generator: one object per row, keyed by vertex tag,
 * each holding that vertex's projections by key ({@code {"s": {"uuid": "…", "attributes.cell":
 * […]}, "s--c": {"label": "x"}}}, as {@link Row#get(String, String)} finds them). A whole row
 * ({@code *}) is spread into its tag's object with the table's column names. Written by hand, so
 * a stream of a million rows costs no reflection per row.
 */
final class RowJson {

    /**
     * Writes rows and the values inside them. No separator between root values: the caller ends
     * lines. A generator closed by a failure leaves what it wrote open, so a cut stream never
     * looks complete.
     */
    static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .rootValueSeparator((String) null)
                    .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
                    .build())
            .build();

    /** The names of a row's values, in projection order, grouped by tag. */
    private final Map<String, List<QueryColumn>> byTag = new LinkedHashMap<>();

    RowJson(QuerySpec spec) {
        for (QueryColumn c : QueryColumn.of(spec)) {
            byTag.computeIfAbsent(c.tag(), t -> new ArrayList<>()).add(c);
        }
    }

    /** Every value of a row, grouped by tag as {@link #write} writes them. */
    List<QueryColumn> names() {
        return byTag.values().stream().flatMap(List::stream).toList();
    }

    void write(JsonGenerator g, Row row) {
        g.writeStartObject();
        for (Map.Entry<String, List<QueryColumn>> tag : byTag.entrySet()) {
            g.writeName(tag.getKey());
            g.writeStartObject();
            for (QueryColumn n : tag.getValue()) {
                Object value = row.get(n.index());
                if (n.key().equals(Projection.ALL)) {
                    whole(g, value);
                } else {
                    g.writeName(n.key());
                    value(g, value);
                }
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** A value of a row: a whole row ({@code *}) as an object, anything else as its JSON. */
    static void cell(JsonGenerator g, QueryColumn name, Object value) {
        if (name.key().equals(Projection.ALL)) {
            if (value == null) {
                g.writeNull();
            } else {
                g.writeStartObject();
                whole(g, value);
                g.writeEndObject();
            }
        } else {
            value(g, value);
        }
    }

    private static void value(JsonGenerator g, Object value) {
        switch (value) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Long l -> g.writeNumber(l);
            case Double d -> g.writeNumber(d);
            case Boolean b -> g.writeBoolean(b);
            case UUID u -> g.writeString(u.toString());
            case OffsetDateTime t -> g.writeString(t.toString());
            case UndecodedJson json -> g.writeRawValue(new RawJson(json.utf8()));
            case UndecodedString string -> g.writeUTF8String(string.utf8(), 0, string.utf8().length);
            default -> MAPPER.writeValue(g, value);
        }
    }

    private static void field(JsonGenerator g, String name, Object value) {
        g.writeName(name);
        value(g, value);
    }

    /** A whole row, its columns as fields of the tag's object. */
    private static void whole(JsonGenerator g, Object row) {
        switch (row) {
            case NodeRecord n -> {
                field(g, "id", n.id());
                field(g, "uuid", n.uuid());
                field(g, "node_type", n.nodeType());
                field(g, "process_type", n.processType());
                field(g, "label", n.label());
                field(g, "description", n.description());
                field(g, "ctime", n.ctime());
                field(g, "mtime", n.mtime());
                field(g, "user_id", n.userId());
                field(g, "computer_id", n.computerId());
                field(g, "attributes", n.attributes());
                field(g, "extras", n.extras());
                field(g, "repository_metadata", n.repositoryMetadata());
                field(g, "hash", n.hash());
            }
            case EntityRow.Group r -> {
                field(g, "id", r.id());
                field(g, "uuid", r.uuid());
                field(g, "label", r.label());
                field(g, "type_string", r.typeString());
                field(g, "description", r.description());
                field(g, "time", r.time());
                field(g, "user_id", r.userId());
                field(g, "extras", r.extras());
            }
            case EntityRow.Computer r -> {
                field(g, "id", r.id());
                field(g, "uuid", r.uuid());
                field(g, "label", r.label());
                field(g, "hostname", r.hostname());
                field(g, "description", r.description());
                field(g, "transport_type", r.transportType());
                field(g, "scheduler_type", r.schedulerType());
                field(g, "metadata", r.metadata());
            }
            case EntityRow.User r -> {
                field(g, "id", r.id());
                field(g, "email", r.email());
                field(g, "first_name", r.firstName());
                field(g, "last_name", r.lastName());
                field(g, "institution", r.institution());
            }
            case EntityRow.Comment r -> {
                field(g, "id", r.id());
                field(g, "uuid", r.uuid());
                field(g, "node_id", r.nodeId());
                field(g, "user_id", r.userId());
                field(g, "ctime", r.ctime());
                field(g, "mtime", r.mtime());
                field(g, "content", r.content());
            }
            case EntityRow.Log r -> {
                field(g, "id", r.id());
                field(g, "uuid", r.uuid());
                field(g, "time", r.time());
                field(g, "logger_name", r.loggerName());
                field(g, "level_name", r.levelName());
                field(g, "node_id", r.nodeId());
                field(g, "message", r.message());
                field(g, "metadata", r.metadata());
            }
            case EntityRow.Link r -> {
                field(g, "id", r.id());
                field(g, "input_id", r.inputId());
                field(g, "output_id", r.outputId());
                field(g, "type", r.type().dbValue());
                field(g, "label", r.label());
            }
            case null -> {}
            default -> throw new IllegalStateException("a whole row of an unknown kind: " + row.getClass());
        }
    }
}
