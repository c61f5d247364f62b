package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A container's packs, numbered 0, 1, …: {@link PackFiles} in a folder, {@link S3Packs} in a bucket. A
 * {@link PackWriter} writes a pack through a local file channel and {@linkplain #publish publishes} it
 * before the index points at it; readers read stored bytes by position.
 */
interface Packs extends AutoCloseable {

    /** Reads exactly {@code buf.remaining()} bytes at {@code position} of a pack. */
    void readFully(int pack, long position, ByteBuffer buf) throws IOException;

    /** The stored bytes of an entry. */
    default byte[] read(PackEntry e) throws IOException {
        if (e.length() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "object " + e.key() + " has " + e.length() + " stored bytes: read it as a stream");
        }
        byte[] b = new byte[(int) e.length()];
        readFully(e.pack(), e.offset(), ByteBuffer.wrap(b));
        return b;
    }

    /** A stream of the stored bytes of an entry, in bounded memory. */
    InputStream stream(PackEntry e) throws IOException;

    /** A memory mapping holding bytes {@code [from, to)} of a pack, or null when there is none to be had. */
    PackFiles.Window window(int pack, long from, long to) throws IOException;

    /** The packs stored, by id, with their sizes. */
    Map<Integer, Long> stored() throws IOException;

    /** The file of a pack, for reading it with the file system's means; empty in a bucket. */
    Optional<Path> file(int pack);

    /** Whether a writer may append to a pack that is already published (files can grow, objects cannot). */
    boolean appendable();

    /** A channel to write a pack through, at positions from its committed size on. */
    FileChannel openForWrite(int pack) throws IOException;

    /**
     * Makes the written packs durable where readers find them, before the index points into them;
     * {@code created} are the packs new to this batch, {@code sync} the container's {@code syncPacks}.
     */
    void publish(Map<Integer, FileChannel> written, Set<Integer> created, boolean sync) throws IOException;

    /** Closes the channel of a pack whose batch is done (committed, or discarded otherwise). */
    void finish(int pack, FileChannel written) throws IOException;

    /**
     * Takes back what a batch wrote to a pack: back to {@code committedSize}, or gone when it was new (-1).
     * {@code written} is null when the pack was published and its channel finished already.
     */
    void discard(int pack, FileChannel written, long committedSize) throws IOException;

    void delete(int pack) throws IOException;

    /** Undoes what an interrupted writer left; runs under the pack lock, before anything is written. */
    void repairLeftovers(Map<Integer, Long> committed) throws IOException;

    /** Where a pack lies, for messages. */
    default String where(int pack) {
        return PackFiles.FOLDER + "/" + pack;
    }

    @Override
    void close() throws IOException;
}
