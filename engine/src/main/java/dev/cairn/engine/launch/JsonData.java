package dev.cairn.engine.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;

/**
 * New data nodes from their JSON forms: the very forms {@link JsonInputs} takes inline at a port
 * of the class ({@code IntData} from {@code 3} or {@code {"value": 3}}, {@code DictData} from an
 * object, {@code StructureData} from its attributes, ...), for a server that makes data nodes a
 * client launches with later. One decoder, so a value a launch takes is a value an upload takes.
 * {@snippet :
 * IntData three = JsonData.decode(IntData.class, json.readTree("3"));   // unstored
 * }
 */
public final class JsonData {

    private JsonData() {}

    /**
     * An unstored node of class {@code type} made from {@code json}.
     *
     * @throws InvalidInputException naming what the class takes and what {@code json} is, or the
     *     value the class refuses (a structure's site naming no kind, a key with a dot, ...); a
     *     class without a JSON form (files, codes, remote folders, processes) is refused too
     */
    public static <T extends Data> T decode(Class<T> type, JsonNode json) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
        List<String> problems = new ArrayList<>();
        Data node = PortValues.inline("the value", type, json, false, problems);
        if (node == null) {
            throw new InvalidInputException(String.join("; ", problems));
        }
        return type.cast(node);
    }
}
