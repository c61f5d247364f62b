package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Objects stored one each, as they are first written: files of a folder ({@link LooseFiles}) or objects of
 * a bucket ({@link S3LooseObjects}). Writers need no lock and readers only ever see whole objects.
 */
interface LooseObjects extends AutoCloseable {

    /**
     * Streams {@code in} into a new loose object, in bounded memory, and returns its key. {@code held}
     * tells whether the store already holds the key (loose or packed) and may keep its copy, in which case
     * nothing is stored; otherwise the new object replaces any loose copy.
     */
    ObjectKey write(InputStream in, Predicate<ObjectKey> held) throws IOException;

    /** Writes bytes whose key the caller computed, and which the caller found missing (or marked). */
    void write(ObjectKey key, byte[] content) throws IOException;

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

    /** Deletes the loose object unless it was written after {@code cutoff}; says whether it is gone. */
    boolean deleteUnlessNewer(ObjectKey key, Instant cutoff) throws IOException;

    /** Deletes every loose object whose key {@code doomed} accepts, on {@code threads} threads; returns how many. */
    int deleteWhere(Predicate<ObjectKey> doomed, int threads) throws IOException;

    /** Calls {@code each} for every loose object; {@code malformed} gets the names of entries that are not keys. */
    void forEach(Consumer<ObjectKey> each, Consumer<String> malformed) throws IOException;

    /** Where the loose object lies, for messages. */
    String where(ObjectKey key);

    /** The file holding the loose object's content, for reading it with the file system's means; empty in a bucket. */
    Optional<Path> file(ObjectKey key);

    @Override
    void close() throws IOException;
}
