package dev.cairn.api.storage;

import java.util.List;

import org.springframework.stereotype.Service;

import dev.cairn.api.storage.AttributeIndexViews.AttributeIndexView;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.AttributeIndex;
import dev.cairn.storage.query.AttributeIndexes;

/**
 * The indexes an operator declares on hot attributes of the nodes, so that queries filtering on them
 * (energy below a bound, a formula equal to a name) read an index instead of every node: listed, built
 * while the server runs, dropped.
 */
@Service
class AttributeIndexService {

    private final AttributeIndexes indexes;

    AttributeIndexService(Storage storage) {
        this.indexes = storage.attributeIndexes();
    }

    /** Every declared index, with its state and size. */
    public List<AttributeIndexView> list() {
        return indexes.list().stream().map(AttributeIndexView::of).toList();
    }

    /** Builds the index of {@code key}'s values of type {@code type} (number, string), or rebuilds an invalid one. */
    public AttributeIndexView add(String key, String type) {
        return AttributeIndexView.of(indexes.add(key, type(type)));
    }

    /** Drops the index of {@code key}'s values of type {@code type}. */
    public void drop(String key, String type) {
        indexes.drop(key, type(type));
    }

    private static AttributeIndex.Type type(String type) {
        if (type == null) {
            throw new InvalidInputException("an attribute index needs a type: number or string");
        }
        return AttributeIndex.Type.of(type);
    }
}
