package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;

/**
 * Receives the objects of a bulk read as streams, for objects of any size in bounded memory. The stream
 * is valid only during the call.
 */
@FunctionalInterface
public interface ObjectStreamConsumer {
    void accept(ObjectKey key, long size, InputStream content) throws IOException;
}
