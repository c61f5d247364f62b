package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;

/**
 * Objects stored one each, as they are first written: files of a folder ({@link LooseFiles}) or objects of
 * a bucket ({@link S3LooseObjects}). Writers need no lock and readers only ever see whole objects.
 */
interface LooseObjects extends AutoCloseable {

    /** What a put found of a key before writing it. */
    enum Found {
        /** The store holds it (loose or packed) and may keep its copy: nothing is written. */
        HELD,
        /** The store does not hold it: a loose object is written. */
        MISSING,
        /**
         * A {@link Sweep} marked it pending deletion: a new loose copy is written, in a way a sweep deleting
         * the old one at that moment cannot lose ({@link #deleteUnlessNewer}).
         */
        MARKED
    }

    /**
     * Streams {@code in} into a new loose object, in bounded memory, and returns its key. {@code found}
     * tells what the store holds of the key: nothing is stored when it is held; otherwise the new object
     * replaces any loose copy.
     */
    ObjectKey write(InputStream in, Function<ObjectKey, Found> found) throws IOException;

    /** Writes bytes whose key the caller computed, and which the caller found missing or (with {@code marked}) marked. */
    void write(ObjectKey key, byte[] content, boolean marked) throws IOException;

    boolean exists(ObjectKey key) throws IOException;

    /** The content, or null when there is no such loose object. */
    byte[] read(ObjectKey key) throws IOException;

    /** A stream of the content, or null when there is no such loose object. */
    InputStream open(ObjectKey key) throws IOException;

    /** The size in bytes, or -1 when there is no such loose object. */
    long size(ObjectKey key) throws IOException;

    boolean delete(ObjectKey key) throws IOException;

    /** When the loose object was last written, or null when there is none. */
    Instant modified(ObjectKey key) throws IOException;

    /**
     * Deletes the loose object unless it was written after {@code cutoff}; says whether it is gone. A copy
     * that a put of the key {@link Found#MARKED} writes meanwhile survives, whenever it lands.
     */
    boolean deleteUnlessNewer(ObjectKey key, Instant cutoff) throws IOException;

    /**
     * Forgets what puts of marked keys left to guard their copies (in a bucket) before {@code cutoff}, once
     * their references have committed; returns how many loose copies it had to put back (of a sweep that
     * stopped between a delete and its check). A folder keeps nothing of the kind.
     */
    default int forgetRevivalsBefore(Instant cutoff) throws IOException {
        return 0;
    }

    /** Deletes every loose object whose key {@code doomed} accepts, on {@code threads} threads; returns how many. */
    int deleteWhere(Predicate<ObjectKey> doomed, int threads) throws IOException;

    /** Calls {@code each} for every loose object; {@code malformed} gets the names of entries that are not keys. */
    void forEach(Consumer<ObjectKey> each, Consumer<String> malformed) throws IOException;

    /**
     * Calls {@code each} for every loose object with its size in bytes when the listing tells it (a
     * bucket's does), or -1 (a folder's does not: it would cost a look at each file).
     */
    void forEachSized(ObjLongConsumer<ObjectKey> each) throws IOException;

    /** Where the loose object lies, for messages. */
    String where(ObjectKey key);

    /** The file holding the loose object's content, for reading it with the file system's means; empty in a bucket. */
    Optional<Path> file(ObjectKey key);

    @Override
    void close() throws IOException;
}
