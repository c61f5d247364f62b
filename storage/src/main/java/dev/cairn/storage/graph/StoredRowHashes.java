package dev.cairn.storage.graph;

import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.hash.NodeHasher;
import dev.cairn.storage.visibility.Internal;

/**
 * The hash of a node from its stored columns, without a class to load it into: what an import computes
 * for the rows it adds, equal to what storing or {@link GraphStore#rehash rehashing} the node gives.
 * Public for the archive import only, which stands outside this package.
 */
@Internal
public final class StoredRowHashes {

    private StoredRowHashes() {}

    /**
     * @param inputs for a process, its inputs' hashes by link label; ignored for data
     */
    public static String hash(
            String nodeType,
            String processType,
            Map<String, Object> attributes,
            Map<String, Object> repositoryMetadata,
            UUID computer,
            Map<String, String> inputs) {
        return NodeHasher.hash(
                NodeHashing.input(nodeType, processType, attributes, repositoryMetadata, computer, inputs));
    }
}
