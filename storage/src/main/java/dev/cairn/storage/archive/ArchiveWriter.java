package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import dev.cairn.storage.objects.ObjectKey;

/**
 * Writes one archive, of Cairn's format or AiiDA's, from the same rows and objects an export reads:
 * {@link #begin} once, then {@link #rows} for every part of {@link ArchivePart#ROWS} in order, then
 * {@link #object} for every object, then {@link #finish}. Rows are newline-delimited JSON in the shapes
 * of {@code docs/archive-format.md}. Closing without {@link #finish} leaves no archive behind (or one
 * that a reader refuses as incomplete, for a stream already sent).
 */
public interface ArchiveWriter extends AutoCloseable {

    /** Starts the archive; {@code header.counts()} are exact (the export counted them in its snapshot). */
    void begin(ArchiveHeader header) throws IOException;

    /**
     * The stream to write the rows of {@code part} to: UTF-8, one JSON object per line, each ending with
     * {@code \n}. The caller closes it before the next part.
     */
    OutputStream rows(ArchivePart part) throws IOException;

    /** One object of {@code size} bytes, read from {@code content} to its end. */
    void object(ObjectKey key, long size, InputStream content) throws IOException;

    /** Ends the archive: after this it is complete. */
    void finish() throws IOException;

    @Override
    void close() throws IOException;
}
