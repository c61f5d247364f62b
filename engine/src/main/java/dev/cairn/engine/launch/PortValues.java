package dev.cairn.engine.launch;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.AttributeValues;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.StructureData;

/**
 * One port's JSON value as a node: a stored node by reference, or a new data node of the
 * port's class from an inline form. What is wrong goes into the caller's problems, named by
 * the port's path.
 */
final class PortValues {

    /** The inline forms, by the class they make. */
    private enum Form {
        INT("an integer, {\"value\": integer}"),
        FLOAT("a number, {\"value\": number}"),
        STR("a string, {\"value\": string}"),
        BOOL("a boolean, {\"value\": boolean}"),
        DICT("an object"),
        LIST("an array"),
        STRUCTURE("an object of cell, pbc1, pbc2, pbc3, kinds and sites"),
        /** A port of Data or Node: the class follows from the JSON type. */
        INFERRED("a number, string, boolean, array or object (an Int, Float, Str, Bool, List or Dict)");

        final String accepted;

        Form(String accepted) {
            this.accepted = accepted;
        }

        static Optional<Form> of(Class<? extends Node> type) {
            if (type == IntData.class) {
                return Optional.of(INT);
            } else if (type == FloatData.class) {
                return Optional.of(FLOAT);
            } else if (type == StrData.class) {
                return Optional.of(STR);
            } else if (type == BoolData.class) {
                return Optional.of(BOOL);
            } else if (type == DictData.class) {
                return Optional.of(DICT);
            } else if (type == ListData.class) {
                return Optional.of(LIST);
            } else if (type == StructureData.class) {
                return Optional.of(STRUCTURE);
            } else if (type.isAssignableFrom(IntData.class)) {
                return Optional.of(INFERRED);
            }
            return Optional.empty();
        }

        boolean hasValueForm() {
            return this == INT || this == FLOAT || this == STR || this == BOOL;
        }
    }

    /** A value whose JSON type the port does not take; the caller names what it takes. */
    private static final class WrongType extends RuntimeException {
        WrongType() {
            super(null, null, false, false);
        }
    }

    private final ReferenceResolver references;

    PortValues(ReferenceResolver references) {
        this.references = Objects.requireNonNull(references, "references");
    }

    /** The node {@code json} gives for the port at {@code path} of class {@code type}; null after a problem. */
    Node decode(String path, Class<? extends Node> type, JsonNode json, List<String> problems) {
        String where = "input '" + path + "'";
        if (json.isNull()) {
            problems.add(where + " is null; leave an input out to omit it");
            return null;
        }
        if (JsonValues.isReference(json)) {
            return stored(where, type, json, problems);
        }
        return inline(where, type, json, true, problems);
    }

    /**
     * A new data node of class {@code type} from its inline form; null after adding what is
     * wrong to {@code problems}. With {@code references}, messages say a reference would do too.
     */
    static Data inline(
            String where, Class<? extends Node> type, JsonNode json, boolean references, List<String> problems) {
        Optional<Form> form = Form.of(type);
        if (form.isEmpty()) {
            problems.add(
                    references
                            ? where + ": give the uuid of a stored " + type.getSimpleName() + " as {\"uuid\": \"…\"}; "
                                    + JsonValues.article(type.getSimpleName()) + " cannot be given inline"
                            : where + ": " + JsonValues.article(type.getSimpleName()) + " has no JSON form");
            return null;
        }
        JsonNode value = json;
        if (form.get().hasValueForm() && json.isObject() && json.size() == 1 && json.has("value")) {
            value = json.get("value");
        }
        try {
            return inline(form.get(), value);
        } catch (WrongType e) {
            String got = value == json ? JsonValues.describe(json) : "{\"value\": " + JsonValues.describe(value) + "}";
            problems.add(where + " takes " + form.get().accepted + (references ? " or {\"uuid\": \"…\"}" : "") + " ("
                    + type.getSimpleName() + "), got " + got);
        } catch (InvalidInputException e) {
            problems.add(where + ": " + e.getMessage());
        }
        return null;
    }

    private Node stored(String where, Class<? extends Node> type, JsonNode reference, List<String> problems) {
        UUID uuid = JsonValues.uuid(reference, where, problems);
        if (uuid == null) {
            return null;
        }
        Optional<Node> node;
        try {
            node = references.node(uuid);
        } catch (InvalidInputException e) {
            // e.g. a node of a type no plugin here provides
            problems.add(where + ": " + e.getMessage());
            return null;
        }
        if (node.isEmpty()) {
            problems.add(where + ": no node has uuid " + uuid);
            return null;
        }
        if (!type.isInstance(node.get())) {
            problems.add(where + ": expected " + type.getSimpleName() + ", got "
                    + node.get().getClass().getSimpleName() + " " + uuid);
            return null;
        }
        return node.get();
    }

    /** A new data node from an inline value; {@link WrongType} when the JSON type does not fit. */
    private static Data inline(Form form, JsonNode json) {
        return switch (form) {
            case INT -> {
                Long value = JsonValues.integer(json);
                if (value == null) {
                    throw new WrongType();
                }
                yield new IntData(value);
            }
            case FLOAT -> {
                if (!json.isNumber()) {
                    throw new WrongType();
                }
                yield new FloatData(json.doubleValue());
            }
            case STR -> {
                if (!json.isString()) {
                    throw new WrongType();
                }
                yield new StrData(json.stringValue());
            }
            case BOOL -> {
                if (!json.isBoolean()) {
                    throw new WrongType();
                }
                yield new BoolData(json.booleanValue());
            }
            case DICT -> {
                if (!json.isObject()) {
                    throw new WrongType();
                }
                yield new DictData(attributes(json));
            }
            case LIST -> {
                if (!json.isArray()) {
                    throw new WrongType();
                }
                yield new ListData((List<?>) AttributeValues.clean(JsonValues.plain(json), "value"));
            }
            case STRUCTURE -> {
                if (!json.isObject()) {
                    throw new WrongType();
                }
                yield StructureData.of(attributes(json));
            }
            case INFERRED -> inline(inferred(json), json);
        };
    }

    /** What a value at a port of Data or Node makes, by its JSON type. */
    private static Form inferred(JsonNode json) {
        return switch (json.getNodeType()) {
            case NUMBER -> json.isIntegralNumber() ? Form.INT : Form.FLOAT;
            case STRING -> Form.STR;
            case BOOLEAN -> Form.BOOL;
            case ARRAY -> Form.LIST;
            case OBJECT -> Form.DICT;
            default -> throw new WrongType();
        };
    }

    /** An object's members, cleaned as attributes with refusals named from "value". */
    @SuppressWarnings("unchecked")
    private static Map<String, ?> attributes(JsonNode object) {
        return (Map<String, ?>) AttributeValues.clean(JsonValues.plain(object), "value");
    }
}
