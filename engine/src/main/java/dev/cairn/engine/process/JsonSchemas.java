package dev.cairn.engine.process;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.graph.Node;

/**
 * A namespace of ports as JSON Schema (2020-12). A port's value is a node, given either by
 * reference ({"uuid": …} or {"id": …}) or, for data, by its attributes; the node class goes
 * into {@code x-cairn-node-type} so a client knows which node to send.
 */
final class JsonSchemas {

    static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    private JsonSchemas() {}

    static Map<String, Object> of(PortNamespace root) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", DIALECT);
        schema.putAll(namespace(root));
        return schema;
    }

    private static Map<String, Object> namespace(PortNamespace ns) {
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
                        case PortNamespace inner -> namespace(inner);
                        case InputPort<?> in -> port(in.type(), in.help(), in.defaultValue() != null);
                        case OutputPort<?> out -> port(out.type(), out.help(), false);
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
        schema.put("additionalProperties", ns.dynamic() ? port(ns.dynamicType(), "", false) : false);
        return schema;
    }

    private static Map<String, Object> port(Class<? extends Node> type, String help, boolean hasDefault) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
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
        return schema;
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
