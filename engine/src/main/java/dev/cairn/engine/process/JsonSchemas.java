package dev.cairn.engine.process;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.StructureData;

/**
 * A namespace of ports as JSON Schema (2020-12).
 * <p>
 * For inputs, the schema is exactly the JSON form that {@code dev.cairn.engine.launch.JsonInputs}
 * decodes (a test holds the two together). Namespaces are nested objects; a dynamic one takes
 * undeclared keys that are port names. A port's value is a node, given by reference,
 * {@code {"uuid": "…"}}, or inline as a new data node of the port's class:
 * <ul>
 * <li>{@code IntData}, {@code FloatData}, {@code StrData}, {@code BoolData}: a bare JSON integer
 *     (64 bits), number, string or boolean, or the attribute form {@code {"value": …}};</li>
 * <li>{@code DictData}: any object but a lone {@code uuid} key (that is a reference), keys
 *     without '.';</li>
 * <li>{@code ListData}: an array;</li>
 * <li>{@code StructureData}: its attributes {@code cell}, {@code pbc1..3}, {@code kinds},
 *     {@code sites};</li>
 * <li>a port of the abstract {@code Data} or {@code Node}: a number, string, boolean, array or
 *     object, made an Int (an integer literal), Float, Str, Bool, List or Dict;</li>
 * <li>any other class (codes, folders, remote data, arrays, processes): a reference only.</li>
 * </ul>
 * What JSON Schema cannot say is left to the data class and reported by the decoder: a
 * structure's kinds must have distinct names, one weight per symbol and be named by its sites,
 * an integer inside a dict or list must fit in 64 bits. The node class goes into
 * {@code x-cairn-node-type} (for concrete classes) and {@code title}.
 * <p>
 * For outputs, each port is described by its node class alone.
 */
final class JsonSchemas {

    static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /** A uuid in its canonical text form, any case. */
    static final String UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

    /** {@link Port#checkName}'s rule: letters, digits and single underscores, from a letter, not ending in '_'. */
    static final String PORT_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$";

    private static final String REFERENCE = "node_reference";
    private static final String ATTRIBUTE_VALUE = "attribute_value";
    private static final String DICT = "dict";
    private static final String STRUCTURE = "structure";

    private JsonSchemas() {}

    /** The schema of a launch's inputs. */
    static Map<String, Object> inputs(PortNamespace root) {
        Map<String, Map<String, Object>> defs = new TreeMap<>();
        Map<String, Object> body = namespace(root, true, defs);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", DIALECT);
        schema.putAll(body);
        schema.put("$defs", defs);
        return schema;
    }

    /** The schema of a process's outputs: each port's node class. */
    static Map<String, Object> outputs(PortNamespace root) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", DIALECT);
        schema.putAll(namespace(root, false, new TreeMap<>()));
        return schema;
    }

    private static Map<String, Object> namespace(
            PortNamespace ns, boolean input, Map<String, Map<String, Object>> defs) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        if (!ns.help().isEmpty()) {
            schema.put("description", ns.help());
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (Port p : ns.ports().values()) {
            properties.put(
                    p.name(),
                    switch (p) {
                        case PortNamespace inner -> namespace(inner, input, defs);
                        case InputPort<?> in -> port(in.type(), in.help(), in.defaultValue() != null, input, defs);
                        case OutputPort<?> out -> port(out.type(), out.help(), false, input, defs);
                    });
            boolean hasDefault = p instanceof InputPort<?> in && in.defaultValue() != null;
            if (p.required() && !hasDefault) {
                required.add(p.name());
            }
        }
        schema.put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        if (ns.dynamic()) {
            if (input) {
                schema.put("propertyNames", Map.of("pattern", PORT_NAME_PATTERN));
            }
            schema.put("additionalProperties", port(ns.dynamicType(), "", false, input, defs));
        } else {
            schema.put("additionalProperties", false);
        }
        return schema;
    }

    private static Map<String, Object> port(
            Class<? extends Node> type,
            String help,
            boolean hasDefault,
            boolean input,
            Map<String, Map<String, Object>> defs) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("title", type.getSimpleName());
        if (!help.isEmpty()) {
            schema.put("description", help);
        }
        String nodeType = nodeType(type);
        if (nodeType != null) {
            schema.put("x-cairn-node-type", nodeType);
        }
        if (hasDefault) {
            schema.put("x-cairn-has-default", true);
        }
        if (!input) {
            schema.put("type", "object");
            return schema;
        }
        List<Object> forms = new ArrayList<>();
        forms.add(ref(REFERENCE, defs));
        forms.addAll(inlineForms(type, defs));
        if (forms.size() == 1) {
            schema.putAll(ref(REFERENCE, defs));
        } else {
            schema.put("oneOf", forms);
        }
        return schema;
    }

    /** The inline forms of a node class, none when it is given by reference only; they exclude one another. */
    private static List<Object> inlineForms(Class<? extends Node> type, Map<String, Map<String, Object>> defs) {
        if (type == IntData.class) {
            return scalar(integer());
        }
        if (type == FloatData.class) {
            return scalar(Map.of("type", "number"));
        }
        if (type == StrData.class) {
            return scalar(Map.of("type", "string"));
        }
        if (type == BoolData.class) {
            return scalar(Map.of("type", "boolean"));
        }
        if (type == DictData.class) {
            return List.of(ref(DICT, defs));
        }
        if (type == ListData.class) {
            return List.of(list(defs));
        }
        if (type == StructureData.class) {
            return List.of(ref(STRUCTURE, defs));
        }
        if (type.isAssignableFrom(IntData.class)) {
            // Data or Node: the class follows from the JSON type
            return List.of(
                    Map.of("type", "number"),
                    Map.of("type", "string"),
                    Map.of("type", "boolean"),
                    list(defs),
                    ref(DICT, defs));
        }
        return List.of();
    }

    /** A bare value, or its attribute form {@code {"value": …}}. */
    private static List<Object> scalar(Map<String, Object> value) {
        return List.of(value, closedObject(Map.of("value", value), List.of("value")));
    }

    private static Map<String, Object> integer() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "integer");
        schema.put("minimum", Long.MIN_VALUE);
        schema.put("maximum", Long.MAX_VALUE);
        return schema;
    }

    private static Map<String, Object> list(Map<String, Map<String, Object>> defs) {
        return Map.of("type", "array", "items", ref(ATTRIBUTE_VALUE, defs));
    }

    private static Map<String, Object> ref(String name, Map<String, Map<String, Object>> defs) {
        if (!defs.containsKey(name)) {
            defs.put(name, Map.of()); // taken before building, as definitions refer to one another
            defs.put(name, definition(name, defs));
        }
        return Map.of("$ref", "#/$defs/" + name);
    }

    private static Map<String, Object> definition(String name, Map<String, Map<String, Object>> defs) {
        return switch (name) {
            case REFERENCE -> {
                Map<String, Object> reference = closedObject(
                        Map.of("uuid", Map.of("type", "string", "pattern", UUID_PATTERN)), List.of("uuid"));
                reference.put("description", "a stored node, by its uuid");
                yield reference;
            }
            case ATTRIBUTE_VALUE -> {
                Map<String, Object> value = new LinkedHashMap<>();
                value.put("description", "a JSON value whose object keys are not empty and hold no '.'");
                value.put(
                        "anyOf",
                        List.of(
                                Map.of("type", List.of("null", "boolean", "number", "string")),
                                list(defs),
                                attributeObject(defs)));
                yield value;
            }
            case DICT -> {
                Map<String, Object> dict = attributeObject(defs);
                // an object of the one key uuid is a reference, never a dict
                dict.put("not", Map.of("required", List.of("uuid"), "maxProperties", 1));
                yield dict;
            }
            case STRUCTURE -> structure();
            default -> throw new IllegalStateException("no schema definition " + name);
        };
    }

    private static Map<String, Object> attributeObject(Map<String, Map<String, Object>> defs) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("type", "object");
        object.put("propertyNames", Map.of("minLength", 1, "pattern", "^[^.]*$"));
        object.put("additionalProperties", ref(ATTRIBUTE_VALUE, defs));
        return object;
    }

    private static Map<String, Object> structure() {
        Map<String, Object> vector =
                Map.of("type", "array", "items", Map.of("type", "number"), "minItems", 3, "maxItems", 3);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("cell", Map.of("type", "array", "items", vector, "minItems", 3, "maxItems", 3));
        for (String pbc : List.of("pbc1", "pbc2", "pbc3")) {
            properties.put(pbc, Map.of("type", "boolean"));
        }
        Map<String, Object> kind = new LinkedHashMap<>();
        kind.put("name", Map.of("type", "string"));
        kind.put("symbols", Map.of("type", "array", "items", Map.of("type", "string"), "minItems", 1));
        kind.put("weights", Map.of("type", "array", "items", Map.of("type", "number")));
        kind.put("mass", Map.of("type", "number"));
        properties.put(
                "kinds",
                Map.of("type", "array", "items", closedObject(kind, List.of("name", "symbols", "weights", "mass"))));
        Map<String, Object> site = new LinkedHashMap<>();
        site.put("kind_name", Map.of("type", "string"));
        site.put("position", vector);
        properties.put("sites", Map.of("type", "array", "items", closedObject(site, List.of("kind_name", "position"))));
        Map<String, Object> structure = closedObject(properties, List.copyOf(properties.keySet()));
        structure.put(
                "description",
                "a crystal structure by its attributes: the cell's rows are lattice vectors (Å), each site"
                        + " names a kind; kind names are distinct, with one weight per symbol");
        return structure;
    }

    private static Map<String, Object> closedObject(Map<String, Object> properties, List<String> required) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("type", "object");
        object.put("properties", properties);
        object.put("required", required);
        object.put("additionalProperties", false);
        return object;
    }

    /** The node type a concrete node class declares in its {@code TYPE} constant; null for abstract ones. */
    static String nodeType(Class<? extends Node> type) {
        if (Modifier.isAbstract(type.getModifiers())) {
            return null;
        }
        try {
            Field f = type.getField("TYPE");
            return Modifier.isStatic(f.getModifiers()) ? (String) f.get(null) : null;
        } catch (ReflectiveOperationException | ClassCastException e) {
            return null;
        }
    }
}
