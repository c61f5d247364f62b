package dev.cairn.storage.graph;

import java.util.List;

/**
 * How a plugin adds data types: implement this and list the class in
 * {@code META-INF/services/dev.cairn.storage.graph.DataTypeProvider}.
 */
public interface DataTypeProvider {

    /** The data types this provider adds, each with its node type and how to read a stored node of it. */
    List<DataType<?>> dataTypes();
}
