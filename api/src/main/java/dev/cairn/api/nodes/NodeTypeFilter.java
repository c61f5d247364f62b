package dev.cairn.api.nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.NodeTypes;
import dev.cairn.storage.query.Filter;

/**
 * Node classes by the names a client knows them by, for {@code type=}: the class part of a node
 * type ({@code StructureData}, {@code Int}, {@code CalcJobNode}), also with the Java class's
 * {@code Data} suffix ({@code IntData}), in any case; the families {@code data}, {@code process},
 * {@code calculation}, {@code workflow} and {@code code}; or a node type or prefix itself
 * ({@code process.calculation.}), which takes its subtypes too.
 */
final class NodeTypeFilter {

    private static final Map<String, String> FAMILIES = Map.of(
            "data", "data.",
            "process", "process.",
            "calculation", "process.calculation.",
            "workflow", "process.workflow.",
            "code", "data.core.code.");

    /** Every known node type by its lower-cased class name, and by that name with "data" appended. */
    private static final Map<String, String> KNOWN = byName();

    private NodeTypeFilter() {}

    /** The node types a comma-separated list of names keeps, as one condition on {@code node_type}. */
    static Filter parse(String names) {
        List<Filter> any = new ArrayList<>();
        for (String raw : names.split(",")) {
            String name = raw.strip();
            if (name.isEmpty()) {
                continue;
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (name.contains(".")) {
                if (!name.endsWith(".") || !(name.startsWith("data.") || name.startsWith("process."))) {
                    throw new InvalidInputException(
                            "type '" + name + "' is not a node type or prefix: those are dotted,"
                                    + " start with data. or process. and end with '.', e.g. data.core.structure.StructureData.");
                }
                any.add(prefix(name));
            } else if (FAMILIES.containsKey(lower)) {
                any.add(prefix(FAMILIES.get(lower)));
            } else if (KNOWN.containsKey(lower)) {
                any.add(Filter.field("node_type").eq(KNOWN.get(lower)));
            } else {
                throw new InvalidInputException("unknown node type '" + name + "'; types are "
                        + NodeTypes.known().stream()
                                .map(NodeTypeFilter::shortName)
                                .sorted()
                                .toList()
                        + ", the families "
                        + FAMILIES.keySet().stream().sorted().toList()
                        + ", or a node type prefix such as process.calculation.");
            }
        }
        if (any.isEmpty()) {
            throw new InvalidInputException("type is empty; name a node class such as StructureData");
        }
        return any.size() == 1 ? any.getFirst() : Filter.or(any.toArray(Filter[]::new));
    }

    private static Filter prefix(String prefix) {
        // '_' is a wildcard of LIKE
        return Filter.field("node_type").like(prefix.replace("_", "\\_") + "%");
    }

    private static Map<String, String> byName() {
        Map<String, String> names = new TreeMap<>();
        for (String type : NodeTypes.known()) {
            String name = shortName(type).toLowerCase(Locale.ROOT);
            names.putIfAbsent(name + "data", type);
        }
        for (String type : NodeTypes.known()) {
            names.put(shortName(type).toLowerCase(Locale.ROOT), type);
        }
        return names;
    }

    /** {@code data.core.int.Int.} is {@code Int}. */
    static String shortName(String nodeType) {
        String[] parts = nodeType.split("\\.");
        return parts[parts.length - 1];
    }
}
