package dev.cairn.storage.graph;

import java.util.Objects;
import java.util.function.Function;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A data type the graph knows: its node type string, its class, and how to build a node
 * of it from a stored row.
 */
public record DataType<T extends Data>(String nodeType, Class<T> javaClass, Function<NodeRecord, T> reader) {

    public DataType {
        NodeTypes.checkSyntax(nodeType);
        if (!nodeType.startsWith(LinkType.NodeClass.DATA.typePrefix())) {
            throw new InvalidInputException("data types start with 'data.': " + nodeType);
        }
        Objects.requireNonNull(javaClass, "javaClass");
        Objects.requireNonNull(reader, "reader");
    }
}
