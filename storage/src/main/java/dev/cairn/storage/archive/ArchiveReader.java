package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;

import dev.cairn.storage.objects.ObjectKey;

/**
 * Reads one archive file, of Cairn's format or AiiDA's, as the same rows and objects. The rows of each
 * part are newline-delimited JSON in the shapes of {@code docs/archive-format.md}, whatever the file
 * holds; the reader checks what the format lets it check (checksums, sizes, paths) and fails with an
 * {@link InvalidArchiveException} naming the part and row.
 */
public interface ArchiveReader extends AutoCloseable {

    /** The header, read when the reader was opened. */
    ArchiveHeader header();

    /**
     * Reads the whole archive once: every part of {@link ArchivePart#ROWS} in that order, then the
     * objects. Each stream is valid only during its call.
     */
    void read(Visitor visitor) throws IOException;

    @Override
    void close() throws IOException;

    /** Receives an archive's parts as they are read. */
    interface Visitor {
        /**
         * The rows of {@code part}: UTF-8, one JSON object per line, each line ending with {@code \n}.
         * Called once for every part of {@link ArchivePart#ROWS}, in order, with an empty stream for an
         * empty part. The visitor reads the stream to its end.
         */
        void rows(ArchivePart part, InputStream ndjson) throws IOException;

        /**
         * One object: {@code size} bytes whose SHA-256 the reader checks as they are read (a mismatch is an
         * {@link InvalidArchiveException} thrown from the stream's reads). The visitor may leave the stream
         * unread to skip the object.
         */
        void object(ObjectKey key, long size, InputStream content) throws IOException;
    }
}
