package dev.cairn.storage.objects;

import java.io.IOException;

/** Receives the objects of a bulk read, one call per object, in the order they lie on disk. */
@FunctionalInterface
public interface ObjectConsumer {
    void accept(ObjectKey key, byte[] content) throws IOException;
}
