package dev.cairn.storage.graph;

/**
 * A stored data node of a type no installed plugin provides, as an archive from another installation
 * (or from AiiDA) brings them: its type string, attributes and files are kept as they came, readable,
 * queryable and exported back unchanged. New nodes of such a type cannot be stored.
 */
public final class GenericData extends Data {

    GenericData(NodeRecord row) {
        super(row);
    }
}
