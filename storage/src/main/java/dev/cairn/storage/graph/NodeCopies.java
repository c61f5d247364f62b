package dev.cairn.storage.graph;

import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Copies of stored data: a new, unstored node of the same type with the same label,
 * description, attributes and files (the same object-store keys, so no content is copied),
 * under a new uuid and without extras or links. Caching gives a cached calculation such
 * copies of its source's outputs.
 */
public final class NodeCopies {

    private NodeCopies() {}

    /**
     * A new, unstored node with the content of stored data {@code data}, its files included.
     *
     * @throws InvalidInputException if {@code data} is not stored
     */
    @SuppressWarnings("unchecked")
    public static <T extends Data> T copyOf(T data) {
        if (!data.isStored()) {
            throw new InvalidInputException(data.describe() + " is not stored; only stored data is copied");
        }
        NodeRecord row = new NodeRecord(
                0,
                Uuids.v7(),
                data.nodeType(),
                data.processType(),
                data.label(),
                data.description(),
                data.ctime(),
                data.mtime(),
                data.userId(),
                data.computerId(),
                data.attributes(),
                Map.of(),
                data.files().toMetadata(),
                null);
        T copy = (T) NodeTypes.read(row);
        copy.forgetStored();
        return copy;
    }
}
